"""Workflow runs (`rde workflows call|runs|run|cancel`): call a workflow and follow its run to the end,
list runs newest first, show one run step by step, cancel one between steps."""

import time

from rde_cli.arguments import parse_pairs, read_json_file
from rde_cli.errors import EXIT_CREDITS, EXIT_NOT_FOUND, EXIT_RUN_ENDED, EXIT_USAGE, CliError
from rde_cli.http import segment
from rde_cli.output import emit, note, progress, progress_done, wants_json

WORKFLOWS = "/api/v2/workflows"
ENDED = ("succeeded", "failed", "cancelled")
UNDER_WAY = ("pending", "running")
# A run that ran out of money is a credits error, as a 402 is (decision 0074's step error codes).
MONEY_CODES = ("insufficient_credits", "spending_cap_reached", "session_limit")
# Short first (most runs of a few steps end in a second or two), then every 2 s.
FIRST_POLL_SECONDS, LAST_POLL_SECONDS = 0.25, 2
PAGE = 100  # the largest page of the workflow and run lists
RUN_COLUMNS = ["id", "workflow_name", "version", "status", "mode", "source", "charged_credits", "created_at"]
STEP_COLUMNS = ["id", "uses", "status", "items", "charged_credits", "duration_ms", "error"]
RUN_FIELDS = [
    "id", "workflow_id", "workflow_name", "version", "status", "mode", "source", "cancel_requested",
    "created_at", "duration_ms", "charged_credits", "would_charge_credits", "error", "output",
]


def register(actions):
    call = actions.add_parser("call", help="run a workflow: call <name or id> key=value... [--input file.json] [--wait]")
    call.add_argument("workflow", help="the workflow's name or wf_ id")
    call.add_argument("pairs", nargs="*", metavar="key=value", help="the run's input")
    call.add_argument("--input", help="the run's input as a JSON object file (- reads stdin)")
    call.add_argument("--dry-run", action="store_true", help="each step's would-charge estimate; no vendor called, nothing spent")
    follow_option(call)
    call.set_defaults(run=run_call)

    runs = actions.add_parser("runs", help="runs, newest first: one workflow's (name or id), or else the workspace's")
    runs.add_argument("workflow", nargs="?")
    runs.add_argument("--limit", type=int)
    runs.add_argument("--offset", type=int)
    runs.set_defaults(run=run_list)

    for name, summary in (
        ("run", "one run with each step's status, items, charge and error"),
        ("cancel", "stop a run before its next step (the step in flight finishes and is billed)"),
    ):
        action = actions.add_parser(name, help=summary)
        action.add_argument("run_id")
        action.add_argument("--workflow", help="the run's workflow, name or id (else found among the workspace's runs)")
        action.set_defaults(run=run_show if name == "run" else run_cancel)
        if name == "run":
            follow_option(action)


def follow_option(action):
    action.add_argument("--wait", action="store_true", help="follow the run until it ends, then show its steps")


def run_call(options, api):
    if options.input and options.pairs:
        raise CliError("give the input as key=value pairs or as --input, not both", EXIT_USAGE)
    body = {
        "workflow": options.workflow,
        "input": read_json_file(options.input) if options.input else parse_pairs(options.pairs),
        "mode": "dry_run" if options.dry_run else "live",
    }
    run = api.post(WORKFLOWS + "/call", body)
    note("run %s queued; follow it with: rde workflows run %s --wait" % (run["id"], run["id"]))
    return show_followed(options, api, run)


def show_followed(options, api, run):
    """With --wait the run once it ended, and its end as the exit code; otherwise the run as it is."""
    if options.wait:
        return show_ended(options, follow(api, run))
    show_run(options, run)
    return 0


def follow(api, run):
    """Polls the run until it ends, a progress line on a terminal: steps done, the one under way."""
    path = run_path(run["workflow_id"], run["id"])
    pause = FIRST_POLL_SECONDS
    while True:
        steps = run.get("steps", [])
        done = len([step for step in steps if step.get("status") not in UNDER_WAY])
        current = next((step["id"] for step in steps if step.get("status") == "running"), "")
        progress(done, len(steps), ("%s %s" % (run["status"], current)).strip())
        if run["status"] in ENDED:
            progress_done()
            return run
        time.sleep(pause)
        pause = min(pause * 2, LAST_POLL_SECONDS)
        run = api.get(path)


def show_ended(options, run):
    """The run on stdout; a run that did not succeed also said on stderr, with its exit code."""
    show_run(options, run)
    if run["status"] == "succeeded":
        return 0
    error = run.get("error") or {}
    where = " at step %s" % error["step"] if error.get("step") else ""
    reason = ": %s - %s" % (error.get("code"), error.get("message")) if error else ""
    note("rde: run %s %s%s%s" % (run["id"], run["status"], where, reason))
    return EXIT_CREDITS if error.get("code") in MONEY_CODES else EXIT_RUN_ENDED


def run_list(options, api):
    path = WORKFLOWS + "/runs"
    if options.workflow:
        path = workflow_path(workflow_id_of(api, options.workflow)) + "/runs"
    answer = api.get(path, query={"limit": options.limit, "offset": options.offset})
    emit(options, answer, RUN_COLUMNS, answer.get("runs", []))
    return 0


def run_show(options, api):
    return show_followed(options, api, api.get(run_path(run_workflow_id(api, options), options.run_id)))


def run_cancel(options, api):
    run = api.post(run_path(run_workflow_id(api, options), options.run_id) + "/cancel")
    if run["status"] == "cancelled":
        note("run %s is cancelled" % run["id"])
    elif run["status"] in ENDED:
        note("run %s had already ended: %s" % (run["id"], run["status"]))
    else:
        note("cancel requested: run %s stops before its next step; the step in flight finishes and is billed" % run["id"])
    show_run(options, run)
    return 0


def show_run(options, run):
    """JSON for scripts; for people the run's fields, then one line per step."""
    if wants_json(options):
        emit(options, run)
        return
    emit(options, {field: run[field] for field in RUN_FIELDS if field in run})
    print()
    emit(options, run, STEP_COLUMNS, run.get("steps", []))


def run_workflow_id(api, options):
    """The run's workflow: the one named, or the one the workspace's run list gives the run."""
    if options.workflow:
        return workflow_id_of(api, options.workflow)
    run = find_listed(api, WORKFLOWS + "/runs", "runs", lambda listed: listed.get("id") == options.run_id)
    if run is None:
        raise CliError("no run %s in this workspace" % options.run_id, EXIT_NOT_FOUND)
    return run["workflow_id"]


def workflow_id_of(api, reference):
    """A `wf_` id as it is; a name looked up in the workspace's workflows (as the server reads `workflow`)."""
    if reference.startswith("wf_"):
        return reference
    workflow = find_listed(api, WORKFLOWS, "workflows", lambda listed: listed.get("name") == reference)
    if workflow is None:
        raise CliError("no workflow named %s in this workspace" % reference, EXIT_NOT_FOUND)
    return workflow["id"]


def find_listed(api, path, key, matches):
    """The first item of a paged list that matches, or None once every page is read."""
    offset = 0
    while True:
        page = api.get(path, query={"limit": PAGE, "offset": offset})
        found = next((item for item in page.get(key, []) if matches(item)), None)
        offset += PAGE
        if found is not None or offset >= page.get("total", 0):
            return found


def workflow_path(workflow_id):
    return WORKFLOWS + "/" + segment(workflow_id)


def run_path(workflow_id, run_id):
    return workflow_path(workflow_id) + "/runs/" + segment(run_id)

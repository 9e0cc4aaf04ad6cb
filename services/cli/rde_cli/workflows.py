"""Stored workflows (`rde workflows ...`): lint and apply a definition file, list, show a version,
enable, disable, delete, and the definition's schema. Runs: workflow_runs.py."""

import json
import sys

from rde_cli import workflow_runs
from rde_cli.arguments import read_json_file
from rde_cli.errors import EXIT_INVALID, CliError
from rde_cli.output import emit, note
from rde_cli.workflow_runs import workflow_path

SUMMARY = ["id", "name", "status", "latest_version", "trigger", "updated_at"]


def register(commands):
    workflows = commands.add_parser(
        "workflows", help="stored workflows: lint, apply, list, show, enable, disable, delete; call and follow runs"
    )
    actions = workflows.add_subparsers(dest="action", metavar="action")
    actions.required = True

    listing = actions.add_parser("list", help="the workspace's workflows, most recently changed first")
    listing.add_argument("--limit", type=int)
    listing.add_argument("--offset", type=int)
    listing.set_defaults(run=run_list)

    show = actions.add_parser("show", help="one workflow with its latest definition (or --version N)")
    show.add_argument("workflow_id")
    show.add_argument("--version", type=int)
    show.set_defaults(run=run_show)

    for name, summary in (("lint", "check a definition file without saving it"), ("apply", "create or update a workflow from a definition file")):
        action = actions.add_parser(name, help=summary + " (JSON; - reads stdin)")
        action.add_argument("file")
        action.set_defaults(run=run_lint if name == "lint" else run_apply)

    for name in ("enable", "disable", "delete"):
        action = actions.add_parser(name, help=name + " a workflow")
        action.add_argument("workflow_id")
        action.set_defaults(run=run_change, change=name)

    schema = actions.add_parser("schema", help="the definition's JSON Schema, or a step's input schema: schema search.people_search")
    schema.add_argument("subject", nargs="?", default="")
    schema.set_defaults(run=run_schema)

    workflow_runs.register(actions)


def run_list(options, api):
    answer = api.get("/api/v2/workflows", query={"limit": options.limit, "offset": options.offset})
    emit(options, answer, SUMMARY, [summary_row(workflow) for workflow in answer.get("workflows", [])])
    return 0


def run_show(options, api):
    answer = api.get(workflow_path(options.workflow_id), query={"version": options.version})
    if isinstance(answer, dict) and not options.json and sys.stdout.isatty():
        emit(options, {k: v for k, v in answer.items() if k != "definition"})
        print(json.dumps(answer.get("definition"), indent=2, sort_keys=True))
    else:
        emit(options, answer)
    return 0


def run_lint(options, api):
    answer = api.post("/api/v2/workflows/lint", read_json_file(options.file))
    problems = answer.get("problems", [])
    emit(options, answer, ["path", "code", "message"], problems)
    if not answer.get("valid"):
        raise CliError("the definition has %d problem(s)" % len(problems), EXIT_INVALID)
    return 0


def run_apply(options, api):
    answer = api.post("/api/v2/workflows/apply", read_json_file(options.file))
    if answer.get("created"):
        note("created workflow %s (version %s)" % (answer.get("id"), answer.get("version")))
    elif answer.get("changed"):
        note("saved version %s of %s" % (answer.get("version"), answer.get("id")))
    else:
        note("unchanged: %s is already version %s" % (answer.get("id"), answer.get("version")))
    if answer.get("webhook_url"):
        # Shown on this answer only (decision 0075), as a path: the full URL is what a sender needs.
        answer["webhook_url"] = api.url + answer["webhook_url"]
        note("webhook URL, shown this once (keep it secret; it is the only key): " + answer["webhook_url"])
    emit(options, {k: v for k, v in answer.items() if k != "definition"})
    return 0


def run_change(options, api):
    path = workflow_path(options.workflow_id)
    if options.change == "delete":
        answer = api.request("DELETE", path)
    else:
        answer = api.post(path + "/" + options.change)
    emit(options, {k: v for k, v in answer.items() if k != "definition"})
    return 0


def run_schema(options, api):
    print(json.dumps(api.get("/api/v2/workflows/schema", query={"subject": options.subject}), indent=2, sort_keys=True))
    return 0


def summary_row(workflow):
    return dict(workflow, trigger=(workflow.get("trigger") or {}).get("type"))

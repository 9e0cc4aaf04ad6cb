"""`rde workflows call|runs|run|cancel` against a stand-in: what each sends, how a followed run's end
becomes the exit code, and how a run's workflow and a workflow's name are found. The client against
the real service is test/spec/distribution-cli-workflows.test.ts."""

import json
import os
import unittest

from tests.support import StandIn, WithArchive, answer_json, run_cli, run_cli_on_terminal

RUNS = "/api/v2/workflows/wf_1/runs/wfr_1"


def run(status, steps=("running",), error=None):
    return {
        "id": "wfr_1",
        "workflow_id": "wf_1",
        "workflow_name": "find-people",
        "status": status,
        "error": error,
        "charged_credits": 2,
        "steps": [{"id": "step%d" % i, "uses": "verimail.verify", "status": s} for i, s in enumerate(steps)],
    }


def page(key, items, total, offset):
    return answer_json({key: items, "offset": offset, "limit": 100, "total": total})


class WorkflowRuns(WithArchive):
    def rde(self, routes, *arguments):
        server = StandIn(routes)
        try:
            outcome = run_cli(self.archive, ["--url", server.url, "--api-key", "rde_live_x"] + list(arguments), self.home)
        finally:
            server.close()
        return outcome, server.requests

    def test_call_sends_the_workflow_its_input_and_the_mode_and_says_how_to_follow_the_run(self):
        routes = {"/api/v2/workflows/call": answer_json(run("queued", ["pending"]), 202)}
        outcome, requests = self.rde(routes, "workflows", "call", "find-people", "city=Berlin", "limit=3", "--dry-run")
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        body = {"workflow": "find-people", "input": {"city": "Berlin", "limit": 3}, "mode": "dry_run"}
        self.assertEqual(requests, [("POST", "/api/v2/workflows/call", body)])
        self.assertEqual(json.loads(outcome.stdout)["status"], "queued")
        self.assertIn("run wfr_1 queued; follow it with: rde workflows run wfr_1 --wait\n", outcome.stderr)

    def test_the_input_from_a_file_or_pairs_but_never_both(self):
        path = os.path.join(self.home, "input.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"city": "Paris", "tags": ["a"]}, handle)
        routes = {"/api/v2/workflows/call": answer_json(run("queued"), 202)}
        outcome, requests = self.rde(routes, "workflows", "call", "wf_1", "--input", path)
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        self.assertEqual(requests[0][2], {"workflow": "wf_1", "input": {"city": "Paris", "tags": ["a"]}, "mode": "live"})
        both, sent = self.rde(routes, "workflows", "call", "wf_1", "city=Rome", "--input", path)
        self.assertEqual((both.returncode, sent), (2, []))
        self.assertIn("not both", both.stderr)

    def test_wait_follows_the_run_until_it_ends_and_prints_the_ended_run(self):
        routes = {
            "/api/v2/workflows/call": answer_json(run("queued", ["pending", "pending"]), 202),
            RUNS: [
                answer_json(run("running", ["succeeded", "running"])),
                answer_json(run("succeeded", ["succeeded", "succeeded"])),
            ],
        }
        outcome, requests = self.rde(routes, "workflows", "call", "find-people", "--wait")
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        self.assertEqual([path for _, path, _ in requests], ["/api/v2/workflows/call", RUNS, RUNS])
        self.assertEqual(json.loads(outcome.stdout), run("succeeded", ["succeeded", "succeeded"]))

    def test_run_wait_follows_a_run_already_under_way_to_its_end(self):
        error = {"code": "insufficient_credits", "message": "the balance is 0", "step": "step0"}
        routes = {RUNS: [answer_json(run("running")), answer_json(run("failed", ["failed"], error))]}
        outcome, requests = self.rde(routes, "workflows", "run", "wfr_1", "--workflow", "wf_1", "--wait")
        self.assertEqual(outcome.returncode, 4, outcome.stderr)
        self.assertEqual([path for _, path, _ in requests], [RUNS, RUNS])
        self.assertEqual(json.loads(outcome.stdout)["status"], "failed")

    def test_on_a_terminal_a_progress_line_then_the_run_and_a_table_of_its_steps(self):
        done = dict(run("succeeded", ["succeeded", "succeeded"]), output={"email": "ada@acme.com"})
        routes = {
            "/api/v2/workflows/call": answer_json(run("queued", ["pending", "pending"]), 202),
            RUNS: [answer_json(run("running", ["succeeded", "running"])), answer_json(done)],
        }
        server = StandIn(routes)
        try:
            arguments = ["--url", server.url, "--api-key", "rde_live_x", "workflows", "call", "find-people", "--wait"]
            code, shown = run_cli_on_terminal(self.archive, arguments, self.home)
        finally:
            server.close()
        self.assertEqual(code, 0, shown)
        self.assertIn("] 1/2 running step1", shown)
        self.assertIn("] 2/2 succeeded", shown)
        self.assertRegex(shown, r"\noutput +{\"email\": \"ada@acme.com\"}\n")
        self.assertRegex(shown, r"\nID +USES +STATUS +ITEMS +CHARGED_CREDITS +DURATION_MS +ERROR\nstep0 +verimail\.verify +succeeded\n")

    def test_a_followed_run_that_did_not_succeed_says_why_with_its_class_exit_code(self):
        capped = {"code": "spending_cap_reached", "message": "the workspace cap", "step": "step0"}
        refused = {"code": "call_refused", "message": "bad domain", "step": "step0"}
        for ended, code, said in (
            (run("failed", ["failed"], capped), 4, "failed at step step0: spending_cap_reached - the workspace cap"),
            (run("failed", ["failed"], refused), 9, "failed at step step0: call_refused - bad domain"),
            (run("cancelled", ["cancelled"]), 9, "cancelled"),
        ):
            routes = {"/api/v2/workflows/call": answer_json(run("queued"), 202), RUNS: answer_json(ended)}
            outcome, _ = self.rde(routes, "workflows", "call", "find-people", "--wait")
            self.assertEqual(outcome.returncode, code, outcome.stderr)
            self.assertEqual(json.loads(outcome.stdout), ended)
            self.assertIn("rde: run wfr_1 " + said + "\n", outcome.stderr)

    def test_a_run_is_found_by_its_id_alone_through_the_workspace_runs_pages(self):
        others = [{"id": "wfr_%d" % i, "workflow_id": "wf_other"} for i in range(2, 102)]
        routes = {
            "/api/v2/workflows/runs?limit=100&offset=0": page("runs", others, 101, 0),
            "/api/v2/workflows/runs?limit=100&offset=100": page("runs", [{"id": "wfr_1", "workflow_id": "wf_1"}], 101, 100),
            RUNS: answer_json(run("succeeded", ["succeeded"])),
        }
        outcome, requests = self.rde(routes, "workflows", "run", "wfr_1")
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        self.assertEqual(requests[-1][:2], ("GET", RUNS))
        missing, _ = self.rde(routes, "workflows", "run", "wfr_404")
        self.assertEqual(missing.returncode, 5)
        self.assertIn("no run wfr_404 in this workspace", missing.stderr)

    def test_a_workflow_name_is_looked_up_and_an_unknown_one_is_not_found(self):
        workflows = page("workflows", [{"id": "wf_1", "name": "find-people"}], 1, 0)
        routes = {
            "/api/v2/workflows?limit=100&offset=0": workflows,
            "/api/v2/workflows/wf_1/runs?limit=5": page("runs", [run("succeeded")], 1, 0),
            "/api/v2/workflows/runs?offset=10": page("runs", [], 1, 10),
        }
        listed, requests = self.rde(routes, "workflows", "runs", "find-people", "--limit", "5")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([item["id"] for item in json.loads(listed.stdout)["runs"]], ["wfr_1"])
        self.assertEqual(requests[-1][1], "/api/v2/workflows/wf_1/runs?limit=5")
        workspace, _ = self.rde(routes, "workflows", "runs", "--offset", "10")
        self.assertEqual(json.loads(workspace.stdout)["offset"], 10)
        unknown, sent = self.rde(routes, "workflows", "runs", "no-such-flow")
        self.assertEqual(unknown.returncode, 5)
        self.assertIn("no workflow named no-such-flow", unknown.stderr)
        self.assertEqual([path for _, path, _ in sent], ["/api/v2/workflows?limit=100&offset=0"])

    def test_cancel_posts_to_the_run_of_the_named_workflow_and_says_what_happens_next(self):
        requested = dict(run("running"), cancel_requested=True)
        routes = {RUNS + "/cancel": answer_json(requested)}
        outcome, requests = self.rde(routes, "workflows", "cancel", "wfr_1", "--workflow", "wf_1")
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        self.assertEqual(requests, [("POST", RUNS + "/cancel", {})])
        self.assertIn("stops before its next step", outcome.stderr)


if __name__ == "__main__":
    unittest.main()

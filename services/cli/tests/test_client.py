"""The client's own rules: credentials 0600, key=value parsing, exit codes per error class, and a
self-update that refuses a download whose SHA-256 does not match. The server here is a stand-in on
loopback; the client against the real service is test/spec/distribution-install.test.ts."""

import hashlib
import json
import os
import stat
import tempfile
import unittest

from tests.support import StandIn, WithArchive, run_cli

from rde_cli import credentials
from rde_cli.arguments import parse_pairs
from rde_cli.errors import CliError


class Credentials(unittest.TestCase):
    def test_saved_only_for_the_owner(self):
        with tempfile.TemporaryDirectory() as home:
            os.environ["RDE_CONFIG_DIR"] = os.path.join(home, "rde")
            try:
                credentials.save({"token": "rde_live_secret"})
                self.assertEqual(stat.S_IMODE(os.stat(credentials.credentials_path()).st_mode), 0o600)
                self.assertEqual(stat.S_IMODE(os.stat(credentials.config_dir()).st_mode), 0o700)
                self.assertEqual(credentials.load()["token"], "rde_live_secret")
                self.assertTrue(credentials.forget())
                self.assertEqual(credentials.load(), {})
            finally:
                del os.environ["RDE_CONFIG_DIR"]


class Pairs(unittest.TestCase):
    def test_json_values_text_values_and_repeated_keys(self):
        self.assertEqual(
            parse_pairs(["limit=3", "name=Ada Lovelace", "city=Berlin", "city=Paris", "flag=true"]),
            {"limit": 3, "name": "Ada Lovelace", "city": ["Berlin", "Paris"], "flag": True},
        )
        self.assertEqual(parse_pairs(["titles=CTO"], always_list=True), {"titles": ["CTO"]})

    def test_a_word_without_equals_is_a_usage_error(self):
        with self.assertRaises(CliError) as refused:
            parse_pairs(["domain"])
        self.assertEqual(refused.exception.exit_code, 2)


class ExitCodes(WithArchive):
    def test_each_error_class_has_its_exit_code_and_a_readable_message(self):
        cap = {"detail": {"error": "spending_cap_reached", "cap_scope": "workspace"}}
        server = StandIn(
            {
                "/billing/balance": (402, "application/json", json.dumps(cap).encode()),
                "/api/v2/me": (401, "application/json", b'{"detail": "send Authorization: Bearer <key>"}'),
            }
        )
        try:
            base = ["--url", server.url, "--api-key", "rde_live_x"]
            capped = run_cli(self.archive, base + ["balance"], self.home)
            refused = run_cli(self.archive, base + ["whoami"], self.home)
            scripted = run_cli(self.archive, base + ["--json", "balance"], self.home)
        finally:
            server.close()
        self.assertEqual((capped.returncode, refused.returncode), (4, 3))
        self.assertIn("402: spending_cap_reached", capped.stderr)
        self.assertEqual(json.loads(scripted.stderr), cap)

    def test_no_key_is_an_authentication_error_before_any_request(self):
        outcome = run_cli(self.archive, ["--url", "http://127.0.0.1:9", "balance"], self.home)
        self.assertEqual(outcome.returncode, 3)
        self.assertIn("rde login", outcome.stderr)

    def test_an_unreachable_server_is_a_server_error(self):
        outcome = run_cli(self.archive, ["--url", "http://127.0.0.1:9", "--api-key", "k", "balance"], self.home)
        self.assertEqual(outcome.returncode, 7)


class SelfUpdate(WithArchive):
    def update(self, served, listed_sha256, extra=()):
        listing = {"latest": "9.0.0", "min_cli_version": "0.0.1", "releases": []}
        routes = {}
        server = StandIn(routes)
        listing["releases"].append({"version": "9.0.0", "sha256": listed_sha256, "download_url": server.url + "/cli/v9.0.0/rde.pyz"})
        routes["/api/v2/cli/releases"] = (200, "application/json", json.dumps(listing).encode())
        routes["/cli/v9.0.0/rde.pyz"] = (200, "application/octet-stream", served)
        try:
            return run_cli(self.archive, ["--url", server.url, "self-update"] + list(extra), self.home)
        finally:
            server.close()

    def installed(self):
        with open(self.archive, "rb") as handle:
            return handle.read()

    def test_a_download_with_another_hash_is_refused_and_nothing_changes(self):
        before = self.installed()
        outcome = self.update(b"not the release", hashlib.sha256(b"the release").hexdigest())
        self.assertEqual(outcome.returncode, 8)
        self.assertIn("refused", outcome.stderr)
        self.assertEqual(self.installed(), before)
        self.assertEqual(sorted(os.listdir(os.path.dirname(self.archive))), ["rde.pyz"])

    def test_a_matching_download_replaces_the_archive(self):
        replacement = b"#!/usr/bin/env python3\nprint('9.0.0')\n"
        outcome = self.update(replacement, hashlib.sha256(replacement).hexdigest())
        self.assertEqual(outcome.returncode, 0, outcome.stderr)
        self.assertEqual(self.installed(), replacement)

    def test_a_release_older_than_min_cli_version_is_refused(self):
        outcome = self.update(b"x", hashlib.sha256(b"x").hexdigest(), ["--to", "0.0.0"])
        self.assertEqual(outcome.returncode, 2)
        self.assertIn("oldest supported", outcome.stderr)


if __name__ == "__main__":
    unittest.main()

"""Signing in (the CLI claim flow), signing out, and what the key is and holds."""

import time
import urllib.parse
import webbrowser

from rde_cli import credentials
from rde_cli.errors import EXIT_AUTH, CliError
from rde_cli.output import emit, note

POLL_SECONDS = 2


def register(commands):
    login = commands.add_parser("login", help="sign in through the browser and save the key")
    login.add_argument("--invite", help="an invite code: the key is for the team that invited you")
    login.add_argument("--no-browser", action="store_true", help="print the sign-in link, do not open it")
    login.set_defaults(run=run_login)
    commands.add_parser("logout", help="revoke the saved key and forget it").set_defaults(run=run_logout)
    commands.add_parser("whoami", help="the key's workspace, role and plan").set_defaults(run=run_whoami)
    commands.add_parser("balance", help="the workspace's credits").set_defaults(run=run_balance)


def run_login(options, api):
    claim = api.post("/api/v2/auth/cli/start", authenticated=False)
    link = approval_link(api.url, claim, options.invite)
    note("Sign in to approve this client: " + link)
    if not options.no_browser:
        webbrowser.open(link)
    token, workspace = wait_for_approval(api, claim)
    credentials.save({"url": api.url, "token": token, "workspace_id": workspace})
    note("Signed in; the key is saved in " + credentials.credentials_path())
    emit(options, {"workspace_id": workspace, "url": api.url})
    return 0


def approval_link(url, claim, invite):
    """The claim page; with an invite, the sign-in page itself, which carries the invite to the approval."""
    if not invite:
        return claim["approval_url"]
    query = urllib.parse.urlencode({"cli_token": claim["claim_id"], "invite_code": invite})
    return "%s/auth/signin?%s" % (url, query)


def wait_for_approval(api, claim):
    path = "/api/v2/auth/cli/poll/" + urllib.parse.quote(claim["claim_id"], safe="")
    while True:
        answer = api.get(path, authenticated=False)
        status = answer.get("status")
        if status == "approved" and answer.get("token"):
            return answer["token"], answer.get("workspace_id")
        if status in ("expired", "delivered"):
            raise CliError("the sign-in request %s; run `rde login` again" % status, EXIT_AUTH)
        time.sleep(POLL_SECONDS)


def run_logout(options, api):
    if api.key:
        api.post("/api/v2/auth/logout")
    forgotten = credentials.forget()
    emit(options, {"signed_out": True, "credentials_removed": forgotten})
    return 0


def run_whoami(options, api):
    emit(options, api.get("/api/v2/me"))
    return 0


def run_balance(options, api):
    emit(options, api.get("/billing/balance"))
    return 0



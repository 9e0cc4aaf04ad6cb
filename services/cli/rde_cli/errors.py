"""Error classes of the client, each with its own exit code, so scripts can tell them apart."""

import json

EXIT_OK = 0
EXIT_USAGE = 2  # bad arguments, the same code argparse uses
EXIT_AUTH = 3  # not signed in, or the key was refused (401, 403)
EXIT_CREDITS = 4  # 402: balance, plan or spending cap
EXIT_NOT_FOUND = 5  # 404
EXIT_INVALID = 6  # 400, 409, 422: the request was refused as it stands
EXIT_SERVER = 7  # 5xx, or the server could not be reached
EXIT_INTEGRITY = 8  # a download whose SHA-256 does not match
EXIT_RUN_ENDED = 9  # a followed workflow run ended failed or cancelled (out of money: EXIT_CREDITS)


class CliError(Exception):
    """A failure to show the user, with the exit code of its class."""

    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code


def exit_code_of_status(status):
    if status in (401, 403):
        return EXIT_AUTH
    if status == 402:
        return EXIT_CREDITS
    if status == 404:
        return EXIT_NOT_FOUND
    if status >= 500:
        return EXIT_SERVER
    return EXIT_INVALID


class ApiError(CliError):
    """An HTTP error answer of the API, its body kept for --json and shown readably otherwise."""

    def __init__(self, status, body):
        self.status = status
        self.body = body
        super().__init__(readable_error(status, body), exit_code_of_status(status))


def readable_error(status, body):
    """One line or a few: the spec's error bodies carry `detail`, `error`, `message` or `reason`."""
    if isinstance(body, dict):
        detail = body.get("detail", body)
        if isinstance(detail, str):
            return "%d: %s" % (status, detail)
        if isinstance(detail, dict):
            words = [str(detail[k]) for k in ("error", "reason", "message") if detail.get(k)]
            if words:
                return "%d: %s" % (status, " - ".join(words))
        if isinstance(detail, list):
            return "%d:\n%s" % (status, "\n".join("  " + describe_item(item) for item in detail))
        return "%d: %s" % (status, json.dumps(detail, sort_keys=True))
    return "%d: %s" % (status, body if body else "no details")


def describe_item(item):
    if isinstance(item, dict) and "msg" in item:
        location = ".".join(str(part) for part in item.get("loc", []))
        return "%s: %s" % (location, item["msg"]) if location else str(item["msg"])
    return json.dumps(item, sort_keys=True)

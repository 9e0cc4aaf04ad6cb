"""Schemathesis hooks for RDE (loaded by test/schemathesis/run through SCHEMATHESIS_HOOKS).

Generic over /openapi.json, so a route added later is covered without a change here:
- the fuzzer never spends credits: every operation whose request body declares `dry_run` is a paid
  one, and each generated object body is sent with `dry_run: true`; a body whose `mode` offers
  `dry_run` (a workflow call, decision 0074) is sent with `mode: dry_run`;
- the run never revokes the key it authenticates with (its id is in RDE_ST_KEY_ID; logout is not
  fuzzed at all, see schemathesis.toml): every later case would only see 401;
- CSV responses are read as text, so their schema (a string) is checked too;
- MCP requests accept both JSON and an event stream, as Streamable HTTP requires of every MCP client
  (the operation's description says so; without it the transport answers 406);
- a well-formed `Idempotency-Key` is made unique per case (decision 0070): the fuzzer reuses values
  across operations and bodies, and the same key with another request is rightly 422; malformed
  keys, and cases testing a missing bearer (editing their headers would send it), are left as
  generated.
"""

import os
import re
import uuid

import schemathesis
from hypothesis.internal import lambda_sources

# CPython 3.11 before 3.11.8 can fail `ast.parse` deep in the stack with "SystemError: AST
# constructor recursion depth mismatch". Hypothesis parses a filter lambda's source only to name it
# in a report, so that failure ends a case for nothing: name the lambda unknown instead.
_describe_lambda = lambda_sources._lambda_description


def _lambda_description(f):
    try:
        return _describe_lambda(f)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _lambda_description


def _body_properties(operation) -> dict:
    body = operation.definition.raw.get("requestBody") or {}
    properties = {}
    for media in (body.get("content") or {}).values():
        properties.update((media.get("schema") or {}).get("properties") or {})
    return properties


def _declares_dry_run(operation) -> bool:
    return "dry_run" in _body_properties(operation)


def _offers_dry_run_mode(operation) -> bool:
    return "dry_run" in ((_body_properties(operation).get("mode") or {}).get("enum") or [])


MCP_PATH = "/api/v2/mcp"
MCP_ACCEPT = "application/json, text/event-stream"


def _tests_a_missing_bearer(case) -> bool:
    """A coverage case leaving out Authorization: editing its headers would have Schemathesis send it."""
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    return str(getattr(data, "parameter", "") or "").lower() == "authorization"


IDEMPOTENCY_KEY = "idempotency-key"
WELL_FORMED_KEY = re.compile(r"[\x20-\x7e]{1,255}")


def _unique_idempotency_key(case) -> None:
    for name, value in list((case.headers or {}).items()):
        if name.lower() == IDEMPOTENCY_KEY and isinstance(value, str) and WELL_FORMED_KEY.fullmatch(value):
            case.headers[name] = (uuid.uuid4().hex + value)[:255]


@schemathesis.hook
def before_call(context, case, **kwargs):
    if not _tests_a_missing_bearer(case):
        _unique_idempotency_key(case)
    if case.path == MCP_PATH and case.method.upper() == "POST" and not _tests_a_missing_bearer(case):
        case.headers = {**(case.headers or {}), "Accept": MCP_ACCEPT}
    if isinstance(case.body, dict) and _declares_dry_run(case.operation):
        case.body["dry_run"] = True
    if isinstance(case.body, dict) and _offers_dry_run_mode(case.operation):
        case.body["mode"] = "dry_run"
    protected = os.environ.get("RDE_ST_KEY_ID")
    key_id = (case.path_parameters or {}).get("key_id")
    if protected and case.method.upper() == "DELETE" and key_id == protected:
        case.path_parameters["key_id"] = "key_not_the_run_key"


@schemathesis.hook
def after_call(context, case, response):
    # The run's figure "operations that reached a 2xx" (test/schemathesis/run) is read from this log.
    status_log = os.environ.get("RDE_ST_STATUS_LOG")
    if status_log:
        with open(status_log, "a", encoding="utf-8") as log:
            log.write(f"{case.method.upper()} {case.operation.path} {response.status_code}\n")


@schemathesis.deserializer("text/csv")
def deserialize_csv(context, response):
    return response.content.decode("utf-8")

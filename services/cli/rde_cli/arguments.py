"""`key=value` arguments: values that read as JSON (numbers, true, lists, objects) are JSON, the rest
text; a key given twice collects a list. And JSON files named on the command line."""

import json
import sys

from rde_cli.errors import EXIT_USAGE, CliError


def parse_pairs(pairs, always_list=False):
    values = {}
    for pair in pairs:
        key, separator, text = pair.partition("=")
        if not separator or not key:
            raise CliError("expected key=value, got %r" % pair, EXIT_USAGE)
        value = json_or_text(text)
        if key in values or always_list:
            previous = values.get(key, [])
            values[key] = (previous if isinstance(previous, list) else [previous]) + (
                value if isinstance(value, list) else [value]
            )
        else:
            values[key] = value
    return values


def json_or_text(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def read_json_file(file):
    """The JSON document in `file` (`-`: stdin); a file that cannot be read or is not JSON is a usage error."""
    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            with open(file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as failure:
        raise CliError("cannot read %s: %s" % (file, failure.strerror), EXIT_USAGE) from None
    try:
        return json.loads(text)
    except ValueError as failure:
        raise CliError("%s is not JSON: %s" % (file, failure), EXIT_USAGE) from None

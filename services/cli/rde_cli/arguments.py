"""`key=value` arguments: values that read as JSON (numbers, true, lists, objects) are JSON, the rest
text; a key given twice collects a list."""

import json

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

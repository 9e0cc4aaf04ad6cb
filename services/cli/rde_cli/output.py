"""What commands print: a table on a terminal, JSON with --json or when the output is piped."""

import json
import sys


def wants_json(options):
    return options.json or not sys.stdout.isatty()


def emit(options, value, columns=None, rows=None):
    """`value` as JSON for scripts; for people, `rows` (a list of dicts) as a table of `columns`, or
    the value's own fields as key/value lines."""
    if wants_json(options):
        print(json.dumps(value, indent=2, sort_keys=True))
    elif columns is not None:
        print_table(columns, rows if rows is not None else value)
    elif isinstance(value, dict):
        print_table(["field", "value"], [{"field": k, "value": v} for k, v in value.items()])
    else:
        print(value)


def print_table(columns, rows):
    cells = [[cell_text(row.get(column)) for column in columns] for row in rows]
    widths = [max([len(column)] + [len(line[i]) for line in cells]) for i, column in enumerate(columns)]
    print("  ".join(column.upper().ljust(widths[i]) for i, column in enumerate(columns)).rstrip())
    for line in cells:
        print("  ".join(text.ljust(widths[i]) for i, text in enumerate(line)).rstrip())
    if not rows:
        print("(none)")


def cell_text(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        text = json.dumps(value, sort_keys=True)
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def progress(done, total, label=""):
    """A live bar on a terminal's stderr, what is under way after it; nothing when stderr is piped
    (logs stay clean)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = int(width * done / total) if total else 0
    # Padded, so a shorter label overwrites the end of a longer one on the same line.
    line = "[%s%s] %d/%d %s" % ("#" * filled, "." * (width - filled), done, total, label)
    sys.stderr.write("\r" + line.ljust(79))
    sys.stderr.flush()


def progress_done():
    if sys.stderr.isatty():
        sys.stderr.write("\n")


def note(message):
    """Messages for the person, on stderr so stdout stays the command's result."""
    sys.stderr.write(message + "\n")

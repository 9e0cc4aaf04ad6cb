"""Dataset enrichment runs (`rde enrich`, `rde run`) and datasets: a live progress bar, polling that
can be resumed by run id, results written to CSV."""

import csv
import json
import time
import urllib.parse

from rde_cli.errors import EXIT_SERVER, EXIT_USAGE, CliError
from rde_cli.output import emit, note, progress, progress_done

FINISHED = ("completed", "cancelled", "failed")
ROWS_PAGE = 1000  # the rows route's largest page


def register(commands):
    enrich = commands.add_parser("enrich", help="enrich a CSV or JSON-lines file: rde enrich email_enrichment --input rows.csv")
    enrich.add_argument("capability")
    enrich.add_argument("--input", required=True, help="rows as .csv (a header line) or .jsonl (one object a line)")
    enrich.add_argument("--output", help="where the enriched rows go as CSV (default: <run id>.csv)")
    enrich.add_argument("--dry-run", action="store_true", help="the plan per step; nothing is held, charged or called")
    enrich.set_defaults(run=run_enrich)

    resume = commands.add_parser("run", help="follow a run by id until it ends, then write its rows")
    resume.add_argument("run_id")
    resume.add_argument("--output", help="CSV file for the rows (default: <run id>.csv)")
    resume.set_defaults(run=run_follow)

    datasets = commands.add_parser("datasets", help="datasets: list, rows <ds_id>, csv <ds_id>")
    datasets.add_argument("action", choices=["list", "rows", "csv"])
    datasets.add_argument("dataset_id", nargs="?")
    datasets.add_argument("--session", help="list only the datasets of a session")
    datasets.add_argument("--output", help="for csv: the file to write (default: stdout)")
    datasets.set_defaults(run=run_datasets)


def run_enrich(options, api):
    body = {"input_rows": read_rows(options.input), "steps": [options.capability], "detach": True}
    if options.dry_run:
        body["dry_run"] = True
        emit(options, api.post("/enrich/run", body))
        return 0
    started = api.post("/enrich/run", body)
    run_id = started.get("_meta", {}).get("run_id")
    if not run_id:
        raise CliError("the server answered no run id", EXIT_SERVER)
    note("run %s started; if interrupted, resume with: rde run %s" % (run_id, run_id))
    return follow(options, api, run_id, started)


def run_follow(options, api):
    return follow(options, api, options.run_id, None)


def follow(options, api, run_id, answer):
    path = "/enrich/runs/" + urllib.parse.quote(run_id, safe="")
    while True:
        answer = answer or api.get(path)
        meta = answer.get("_meta", {})
        shown = meta.get("progress", {})
        progress(shown.get("done", 0), shown.get("total", 0))
        if meta.get("status") in FINISHED:
            break
        time.sleep(max(1, min(int(meta.get("poll_after_s", 2)), 10)))
        answer = None
    progress_done()
    target = options.output or run_id + ".csv"
    if meta.get("dataset_id"):
        write_rows_csv(api, meta["dataset_id"], target)
        note("rows written to " + target)
    emit(options, meta)
    return 0 if meta.get("status") == "completed" else EXIT_SERVER


def run_datasets(options, api):
    if options.action == "list":
        answer = api.get("/api/v2/datasets", query={"session_id": options.session})
        emit(options, answer, ["id", "name", "row_count", "created_at"], answer.get("datasets", []))
        return 0
    if not options.dataset_id:
        raise CliError("datasets %s needs a dataset id" % options.action, EXIT_USAGE)
    if options.action == "rows":
        answer = api.get("/api/v2/datasets/%s/rows" % urllib.parse.quote(options.dataset_id, safe=""))
        rows = answer.get("rows", [])
        emit(options, answer, sorted({key for row in rows for key in row}), rows)
        return 0
    text = dataset_csv(api, options.dataset_id)
    if options.output:
        write_file(options.output, text)
    else:
        print(text, end="")
    return 0


def dataset_csv(api, dataset_id):
    raw = api.download("/api/v2/datasets/%s/csv" % urllib.parse.quote(dataset_id, safe=""), authenticated=True)
    return raw.decode("utf-8")


def write_rows_csv(api, dataset_id, path):
    """Every row of the dataset, each column that any row has (first seen first), nested values as JSON."""
    rows, offset = [], 0
    while True:
        page = api.get(
            "/api/v2/datasets/%s/rows" % urllib.parse.quote(dataset_id, safe=""),
            query={"offset": offset, "limit": ROWS_PAGE},
        )
        rows.extend(page.get("rows", []))
        offset += ROWS_PAGE
        if offset >= page.get("total", 0):
            break
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({key: cell(value) for key, value in row.items()})


def cell(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, (dict, list, bool)) else value


def write_file(path, text):
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def read_rows(path):
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            if path.endswith(".jsonl"):
                return [json.loads(line) for line in handle if line.strip()]
            return [dict(row) for row in csv.DictReader(handle)]
    except (OSError, ValueError) as failure:
        raise CliError("cannot read %s: %s" % (path, failure), EXIT_USAGE) from None

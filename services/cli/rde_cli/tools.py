"""The tool catalog, single tool calls and people search."""

from rde_cli.arguments import parse_pairs
from rde_cli.http import segment
from rde_cli.output import emit


def register(commands):
    tools = commands.add_parser("tools", help="the tools, their methods and what each costs")
    tools.add_argument("filter", nargs="?", help="narrow by tool, kind, module or method name")
    tools.set_defaults(run=run_tools)

    call = commands.add_parser("call", help="call one tool method: rde call <tool> <method> key=value...")
    call.add_argument("tool")
    call.add_argument("method")
    call.add_argument("pairs", nargs="*", metavar="key=value")
    call.add_argument("--dry-run", action="store_true", help="what it would call and cost; nothing spent")
    call.set_defaults(run=run_call)

    search = commands.add_parser(
        "search", help='people search: rde search titles="Software Engineer" locations=Berlin --limit 3'
    )
    search.add_argument("pairs", nargs="+", metavar="filter=value", help="repeat a filter for several values")
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--dry-run", action="store_true", help="the plan and its worst-case cost; nothing spent")
    search.set_defaults(run=run_search)


def run_tools(options, api):
    answer = api.get("/tools", query={"filter": options.filter})
    # `tools` lists the names; `results` holds each tool with its methods.
    rows = [tool_row(tool) for tool in answer.get("results", [])]
    emit(options, answer, ["tool", "kind", "methods", "description"], rows)
    return 0


def tool_row(tool):
    methods = [method.get("name") for method in tool.get("methods", []) if isinstance(method, dict)]
    return {
        "tool": tool.get("name"),
        "kind": tool.get("kind"),
        "methods": ", ".join(name for name in methods if name),
        "description": tool.get("description"),
    }


def run_call(options, api):
    path = "/tools/%s/%s" % (segment(options.tool), segment(options.method))
    body = {"payload": parse_pairs(options.pairs), "dry_run": options.dry_run}
    emit(options, api.post(path, body))
    return 0


def run_search(options, api):
    body = {"query": parse_pairs(options.pairs, always_list=True), "limit": options.limit}
    if options.dry_run:
        body["dry_run"] = True
    answer = api.post("/search/people_search", body)
    people = answer.get("results", [])
    emit(options, answer, ["full_name", "title", "company", "location"], [person_row(p) for p in people])
    return 0


def person_row(person):
    return {
        "full_name": person.get("full_name") or " ".join(filter(None, [person.get("first_name"), person.get("last_name")])),
        "title": person.get("title") or person.get("job_title"),
        "company": person.get("company") or person.get("company_name"),
        "location": person.get("location"),
    }

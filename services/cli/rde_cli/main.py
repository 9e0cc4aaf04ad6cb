"""Command-line parsing and the error-to-exit-code boundary."""

import argparse
import json
import os
import sys

from rde_cli import __version__, account, credentials, runs, tools, update, workflows
from rde_cli.errors import ApiError, CliError
from rde_cli.http import Api


def parser():
    top = argparse.ArgumentParser(prog="rde", description="RDE: find and enrich people for recruiting, in credits.")
    top.add_argument("--version", action="version", version="rde " + __version__)
    top.add_argument("--url", help="the RDE server (default: saved sign-in, $RDE_URL, http://localhost:8080)")
    top.add_argument("--api-key", help="a key to use instead of the saved one ($RDE_API_KEY)")
    top.add_argument("--json", action="store_true", help="JSON output (the default when output is piped)")
    commands = top.add_subparsers(dest="command", metavar="command")
    commands.required = True
    for group in (account, tools, runs, workflows, update):
        group.register(commands)
    return top


def main(argv):
    options = parser().parse_args(argv)
    url, key = credentials.resolve(options.url, options.api_key)
    try:
        return options.run(options, Api(url, key))
    except ApiError as failure:
        show_error(options, failure, failure.body)
        return failure.exit_code
    except CliError as failure:
        show_error(options, failure, {"error": str(failure)})
        return failure.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader stopped (`rde tools | head`): not an error; keep the exit flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def show_error(options, failure, body):
    """With --json the server's error body as JSON on stderr; otherwise readably."""
    text = json.dumps(body, sort_keys=True) if options.json else "rde: " + str(failure)
    sys.stderr.write(text + "\n")

"""The API over urllib: JSON in, JSON out, errors raised as ApiError with the spec's body."""

import json
import urllib.error
import urllib.parse
import urllib.request

from rde_cli import __version__
from rde_cli.errors import EXIT_AUTH, EXIT_SERVER, ApiError, CliError

TIMEOUT_SECONDS = 120  # the gateway closes blocking calls at about 100 s


class Api:
    def __init__(self, url, key=None):
        self.url = url
        self.key = key

    def request(self, method, path, body=None, query=None, authenticated=True, parse=True):
        target = self.url + path
        if query:
            target += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Accept": "application/json", "User-Agent": "rde-cli/" + __version__}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if authenticated:
            if not self.key:
                raise CliError("not signed in: run `rde login` (or set RDE_API_KEY)", EXIT_AUTH)
            headers["Authorization"] = "Bearer " + self.key
        request = urllib.request.Request(target, data=data, headers=headers, method=method)
        return self._send(request, parse)

    def get(self, path, **options):
        return self.request("GET", path, **options)

    def post(self, path, body=None, **options):
        return self.request("POST", path, body=body if body is not None else {}, **options)

    def download(self, path, authenticated=False):
        """The raw bytes of a path (a release, a CSV)."""
        return self.request("GET", path, authenticated=authenticated, parse=False)

    def _send(self, request, parse=True):
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                raw = response.read()
                return parse_body(raw) if parse else raw
        except urllib.error.HTTPError as failure:
            raise ApiError(failure.code, parse_body(failure.read())) from None
        except urllib.error.URLError as failure:
            raise CliError("cannot reach %s: %s" % (self.url, failure.reason), EXIT_SERVER) from None


def segment(text):
    """A path segment from the command line, never able to reach another path."""
    return urllib.parse.quote(text, safe="")


def parse_body(raw):
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text

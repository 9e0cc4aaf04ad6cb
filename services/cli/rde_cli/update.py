"""`rde self-update`: the release list, a download checked against its SHA-256, and an atomic swap."""

import hashlib
import os
import sys
import tempfile
import urllib.request
import zipfile

from rde_cli import __version__
from rde_cli.errors import EXIT_INTEGRITY, EXIT_NOT_FOUND, EXIT_USAGE, CliError
from rde_cli.output import emit, note


def register(commands):
    update = commands.add_parser("self-update", help="replace this rde.pyz with the latest (or a chosen) release")
    update.add_argument("--to", metavar="VERSION", help="a release to install instead of the latest")
    update.add_argument("--check", action="store_true", help="only say whether an update is available or required")
    update.set_defaults(run=run_self_update)


def version_key(text):
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def run_self_update(options, api):
    listing = api.get("/api/v2/cli/releases", authenticated=False)
    minimum = listing.get("min_cli_version") or "0"
    wanted = options.to or listing["latest"]
    status = {
        "current": __version__,
        "latest": listing["latest"],
        "min_cli_version": minimum,
        "update_required": version_key(__version__) < version_key(minimum),
    }
    if options.check:
        emit(options, status)
        return 0
    if version_key(wanted) < version_key(minimum):
        raise CliError("%s is older than the oldest supported client, %s" % (wanted, minimum), EXIT_USAGE)
    release = next((entry for entry in listing.get("releases", []) if entry.get("version") == wanted), None)
    if release is None:
        raise CliError("no release %s" % wanted, EXIT_NOT_FOUND)
    if wanted == __version__:
        emit(options, dict(status, updated=False))
        return 0
    install(release, running_archive())
    note("rde %s installed; run it again to use it" % wanted)
    emit(options, dict(status, updated=True, installed=wanted))
    # Everything this process needs is imported; nothing more is read from the replaced archive.
    sys.exit(0)


def running_archive():
    """The .pyz this code runs from (its modules live at <archive>/rde_cli/…)."""
    archive = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not zipfile.is_zipfile(archive):
        raise CliError("self-update replaces an installed rde.pyz; this copy runs from source", EXIT_USAGE)
    return archive


def install(release, archive):
    """Downloads beside the archive (same file system, so the rename is atomic), checks the hash,
    and only then replaces the archive; a mismatch leaves the installed client untouched."""
    directory = os.path.dirname(archive)
    descriptor, temporary = tempfile.mkstemp(prefix=".rde-update-", suffix=".pyz", dir=directory)
    try:
        digest = hashlib.sha256()
        with os.fdopen(descriptor, "wb") as handle, urllib.request.urlopen(release["download_url"], timeout=120) as response:
            for chunk in iter(lambda: response.read(65536), b""):
                digest.update(chunk)
                handle.write(chunk)
        if digest.hexdigest() != release["sha256"]:
            raise CliError(
                "refused: the download of %s has SHA-256 %s, the release list says %s"
                % (release["version"], digest.hexdigest(), release["sha256"]),
                EXIT_INTEGRITY,
            )
        os.chmod(temporary, 0o755)
        os.replace(temporary, archive)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)

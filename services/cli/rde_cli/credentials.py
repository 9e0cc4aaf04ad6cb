"""The saved sign-in: a JSON file readable by its owner only (mode 0600) under the config directory."""

import json
import os

DEFAULT_URL = "http://localhost:8080"


def config_dir():
    """$RDE_CONFIG_DIR, else $XDG_CONFIG_HOME/rde, else ~/.config/rde."""
    explicit = os.environ.get("RDE_CONFIG_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "rde")


def credentials_path():
    return os.path.join(config_dir(), "credentials.json")


def settings_path():
    """Written by the install script: the server it was installed from."""
    return os.path.join(config_dir(), "settings.json")


def load(path=None):
    try:
        with open(path or credentials_path(), encoding="utf-8") as handle:
            saved = json.load(handle)
    except (FileNotFoundError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def save(values):
    """Written to a new 0600 file first and renamed over the old one, so no reader sees it half-written
    and the token is never readable by others, not even for a moment."""
    directory = config_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    target = credentials_path()
    temporary = target + ".tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(values, handle, indent=2, sort_keys=True)
    os.chmod(temporary, 0o600)
    os.replace(temporary, target)


def forget():
    try:
        os.remove(credentials_path())
        return True
    except FileNotFoundError:
        return False


def resolve(url_flag=None, key_flag=None):
    """The server and key to use: flags, then RDE_URL / RDE_API_KEY, then the saved sign-in, then the
    server the client was installed from."""
    saved = load()
    url = url_flag or os.environ.get("RDE_URL") or saved.get("url") or load(settings_path()).get("url") or DEFAULT_URL
    key = key_flag or os.environ.get("RDE_API_KEY") or saved.get("token")
    return url.rstrip("/"), key

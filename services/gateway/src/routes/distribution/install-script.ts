/**
 * The install script: POSIX sh, so it runs under any /bin/sh. It downloads one immutable release,
 * checks its SHA-256 before anything is installed, and puts it in the user's local bin.
 */
export function installScript(origin: string, version: string, sha256: string): string {
  return `#!/bin/sh
# Installs rde ${version}, the RDE command-line client: curl -fsSL ${origin}/cli/install | sh
# Needs python3 (3.9 or newer). Installs into $RDE_INSTALL_DIR, else ~/.local/bin.
set -eu

url='${origin}/cli/v${version}/rde.pyz'
expected='${sha256}'
bin_dir="\${RDE_INSTALL_DIR:-$HOME/.local/bin}"

fail() { echo "rde install: $*" >&2; exit 1; }

command -v python3 >/dev/null 2>&1 || fail "python3 is needed (3.9 or newer)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' || fail "python3 is older than 3.9"

mkdir -p "$bin_dir"
tmp="$(mktemp "$bin_dir/.rde-install.XXXXXX")"
trap 'rm -f "$tmp"' EXIT INT TERM

if command -v curl >/dev/null 2>&1; then
  curl -fsSL "$url" -o "$tmp" || fail "cannot download $url"
elif command -v wget >/dev/null 2>&1; then
  wget -q "$url" -O "$tmp" || fail "cannot download $url"
else
  python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" "$tmp" ||
    fail "cannot download $url"
fi

actual="$(python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$tmp")"
[ "$actual" = "$expected" ] || fail "the download's SHA-256 is $actual, the release's is $expected: nothing installed"

chmod 0755 "$tmp"
mv -f "$tmp" "$bin_dir/rde"
trap - EXIT INT TERM

config_dir="\${RDE_CONFIG_DIR:-\${XDG_CONFIG_HOME:-$HOME/.config}/rde}"
if [ ! -e "$config_dir/settings.json" ]; then
  mkdir -p "$config_dir"
  printf '{"url": "%s"}\\n' '${origin}' >"$config_dir/settings.json"
fi

echo "rde ${version} installed in $bin_dir/rde (SHA-256 verified)"
case ":$PATH:" in
  *":$bin_dir:"*) echo "Next: rde login" ;;
  *) echo "Add it to your PATH: export PATH=\\"$bin_dir:\\$PATH\\" (e.g. in ~/.profile), then: rde login" ;;
esac
`;
}

#!/usr/bin/env bash
# Builds deploy/Dockerfile on a machine with Debian's packages only (buildah, debootstrap; run as
# root), and smoke-runs the result. Not part of test/run: it needs root, downloads a Debian base
# and every npm package, and takes minutes.
#
#   deploy/image.sh base    a Node 20 base from debootstrap + this machine's node and npm
#   deploy/image.sh build   the image (makes the base first if missing) -> $RDE_IMAGE
#   deploy/image.sh smoke   runs `rde start` (all-in-one) from the image as user 10001 on a
#                           read-only root: ready, then SIGTERM drains and it exits 0
#
# The Debian mirror is the one this machine's apt uses (DEBIAN_MIRROR overrides it). Behind a
# TLS-intercepting proxy the build stage trusts the host's CA bundle (CA_BUNDLE, default
# /etc/ssl/certs/ca-certificates.crt), passed as a build secret: it is mounted for the one RUN
# that downloads and never lands in a layer of either stage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

BASE_IMAGE="${RDE_NODE_IMAGE:-localhost/rde-node:20-bookworm}"
IMAGE="${RDE_IMAGE:-localhost/rde:dev}"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
work="${TMPDIR:-/tmp}/rde-image"

# The first mirror of this machine's apt sources (deb822 or one-line format).
debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  { awk '/^URIs:/ { print $2 }' /etc/apt/sources.list.d/*.sources 2>/dev/null
    awk '$1 == "deb" { print ($2 ~ /^\[/ ? $3 : $2) }' /etc/apt/sources.list 2>/dev/null
  } | grep -v -- '-security' | head -n 1
}

base() {
  if buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then return; fi
  local rootfs="$work/rootfs" node npm_dir
  node="$(command -v node)"
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  rm -rf "$rootfs" && mkdir -p "$work"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$(debian_mirror)" >&2
  install -m 0755 "$node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  # podman and buildah share the image store; buildah has no import.
  tar -C "$rootfs" -c . | podman import - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
}

build() {
  base
  # chroot isolation: no OCI runtime needed (crun refuses this machine's hybrid cgroups).
  buildah bud --isolation=chroot --network=host --layers \
    --secret "id=ca,src=$CA_BUNDLE" \
    --build-arg "NODE_IMAGE=$BASE_IMAGE" \
    -f deploy/Dockerfile -t "$IMAGE" .
}

ready() {
  node -e "fetch('http://127.0.0.1:$1/ready').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"
}

smoke() {
  # Runs the image's entrypoint (tini, then rde) the way the chart's securityContext does, without
  # an OCI runtime: the image's root filesystem mounted read-only with a private /tmp, user 10001,
  # tini as PID 1 of its own PID namespace, this machine's loopback (PORT=0: a free port, logged).
  local mnt log port='' pid tini status=0 chroot
  chroot="$(command -v chroot)"
  container="$(buildah from "$IMAGE")"
  mnt="$(buildah mount "$container")"
  log="$work/smoke.log"
  trap 'umount -R "$work/smoke" 2>/dev/null || true; buildah rm "$container" >/dev/null' EXIT
  mkdir -p "$work/smoke"
  mount --bind "$mnt" "$work/smoke" && mount -o remount,bind,ro "$work/smoke"
  mount -t tmpfs -o size=64m,mode=1777 tmpfs "$work/smoke/tmp"
  mount --bind /dev "$work/smoke/dev"
  if touch "$work/smoke/usr/.written" 2>/dev/null; then echo "smoke: the root filesystem is writable" >&2; return 1; fi
  unshare --pid --fork --mount-proc="$work/smoke/proc" env -i PATH=/usr/local/bin:/usr/bin:/bin \
    NODE_ENV=production PORT=0 RDE_LOG_LEVEL=info RDE_DRAIN_MS=500 \
    "$chroot" --userspec=10001:10001 "$work/smoke" /usr/bin/tini -- rde start >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    port="$(sed -n 's/.*"port":\([0-9]*\).*"msg":"gateway listening".*/\1/p' "$log" | head -n1)"
    [ -n "$port" ] && ready "$port" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if [ -z "$port" ] || ! ready "$port"; then
    cat "$log" >&2
    echo "smoke: not ready" >&2
    kill "$pid" 2>/dev/null
    return 1
  fi
  tini="$(pgrep -P "$pid" | head -n1)"
  echo "smoke: ready on 127.0.0.1:$port, node running as uid $(stat -c %u "/proc/$(pgrep -P "$tini" | head -n1)")" >&2
  kill -TERM "$tini"
  wait "$pid" || status=$?
  grep -q '"msg":"draining"' "$log" || { cat "$log" >&2; echo "smoke: no drain logged" >&2; return 1; }
  echo "smoke: drained and exited $status after SIGTERM" >&2
  return "$status"
}

case "${1:-}" in
  base) base ;;
  build) build ;;
  smoke) smoke ;;
  *) echo "usage: deploy/image.sh base|build|smoke" >&2; exit 2 ;;
esac

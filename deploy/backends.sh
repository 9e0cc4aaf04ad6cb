#!/usr/bin/env bash
# deploy/backends.sh — install, start, check and stop the real backend servers
# RDE's tests and local runs talk to, all on loopback. This file is only the
# driver: each server is one file deploy/backends/<name>.sh, and every such
# file found is a server this script knows (see deploy/README.md for the list).
#
# Usage: deploy/backends.sh start|stop|status|env [name ...]
#        deploy/backends.sh stop --wipe [name ...]  also delete data dirs
#        deploy/backends.sh <name>-run [args]       a server's own tool runner
#                                                   (e.g. kafka-run CLASS args)
#
# A server file defines, for its <name>:
#   <name>_install   install into $CACHE_DIR unless already there (fast no-op
#                    then); runs under a lock shared by concurrent callers
#   <name>_start     start unless already running (ours), then wait until it
#                    answers; fail with its log tail otherwise
#   <name>_ready     true when our process is running and answers
#   <name>_version   the running/installed version, one word
#   <name>_stop      stop it (no-op when not running)
#   <name>_env       `export VAR=value` lines that point clients at it
# and optionally <name>_run (for `<name>-run`). It uses the helpers below:
# launch, wait_ready, stop_pid, live_pid, port_open, ensure_port_free,
# run_logged, maven_jars, rotate_log, die, log.
#
# Downloads and builds are cached under $RDE_CACHE_DIR (outside the repo) so
# only the first run is slow; runtime state (data, logs, pid files) lives
# under $RDE_BACKENDS_DIR/<name>/. Every command is idempotent.
set -euo pipefail

# ---------------------------------------------------------------- settings --
CACHE_DIR=${RDE_CACHE_DIR:-$HOME/.cache/rde}
STATE_DIR=${RDE_BACKENDS_DIR:-/tmp/rde-backends}
HOST=127.0.0.1                       # loopback only, never a real interface
BACKENDS_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/backends

# Seconds each server may take to answer after it was launched.
TIMEOUT=${RDE_BACKENDS_TIMEOUT:-120}

# ----------------------------------------------------------------- helpers --
log()  { printf '%s\n' "$*" >&2; }
die()  { log "backends: ERROR: $*"; exit 1; }
now()  { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

# Is something accepting TCP connections on HOST:$1? (bash's /dev/tcp, so no
# extra tool is needed; `timeout` keeps a filtered port from hanging us.)
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

# Pid from a pid file if that process is alive AND its command line contains
# the given marker; guards against a stale pid file whose pid was reused.
live_pid() { # pidfile marker
  local pidfile=$1 marker=$2 pid
  [[ -s $pidfile ]] || return 1
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker" || return 1
  echo "$pid"
}

# Launch a long-running foreground server detached from this shell: its own
# session (setsid) so it survives the caller's process group being killed,
# stdin closed, output appended to its log. The inner shell writes its own
# pid and then execs the server, so the pid file holds the server's real pid.
# 9>&- : the server must not inherit our lock fd, or it would hold the
# start/stop lock for its whole life and the next start/stop would hang.
launch() { # pidfile logfile cmd...
  local pidfile=$1 logfile=$2; shift 2
  rm -f "$pidfile"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" \
    </dev/null >>"$logfile" 2>&1 9>&- &
  local i
  for i in $(seq 50); do [[ -s $pidfile ]] && return 0; sleep 0.1; done
  die "could not launch $1 (no pid file $pidfile)"
}

# Keep the previous run's log as <log>.1.
rotate_log() { [[ ! -f $1 ]] || mv -f "$1" "$1.1"; }

# Wait until `check_fn` succeeds, up to TIMEOUT seconds. Fails loudly (with
# the last 40 lines of the server's log) if the process dies or time runs out.
wait_ready() { # name pidfile marker logfile check_fn
  local name=$1 pidfile=$2 marker=$3 logfile=$4 check=$5 t0=$SECONDS
  while :; do
    # Only the pid's existence: while the launcher execs the server, its
    # /proc cmdline can read empty for an instant, so the marker check
    # would call a starting server dead.
    if ! kill -0 "$(<"$pidfile")" 2>/dev/null; then
      fail_with_log "$name" "$logfile" "process exited during startup"
    fi
    "$check" && return 0
    if ((SECONDS - t0 >= TIMEOUT)); then
      # Do not leave a half-started server behind: the next start would
      # otherwise adopt it. Stop it, then fail with its log.
      stop_pid "$name" "$pidfile" "$marker" 20 >&2
      fail_with_log "$name" "$logfile" "did not answer within ${TIMEOUT}s"
    fi
    sleep 0.5
  done
}

fail_with_log() { # name logfile reason
  log "backends: ERROR: $1 $3. Last 40 lines of $2:"
  log "------------------------------------------------------------------"
  tail -n 40 "$2" >&2 2>/dev/null || log "(no log)"
  log "------------------------------------------------------------------"
  exit 1
}

# Stop a pid politely (SIGTERM), escalate to SIGKILL after a grace period.
stop_pid() { # name pidfile marker grace_seconds
  local name=$1 pidfile=$2 marker=$3 grace=$4 pid i
  if pid=$(live_pid "$pidfile" "$marker"); then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < grace * 10; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name: did not stop in ${grace}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "$name stopped (pid $pid)"
  else
    echo "$name not running"
  fi
  rm -f "$pidfile"
}

# Run a noisy install command with its output in a log file under the cache;
# on failure show the end of that log and stop.
run_logged() { # logfile what cmd...
  local logfile=$1 what=$2; shift 2
  if ! "$@" >"$logfile" 2>&1; then
    log "backends: ERROR: $what failed. Last 40 lines of $logfile:"
    tail -n 40 "$logfile" >&2
    exit 1
  fi
}

# Lay the runtime jars of a pom's dependencies (Maven Central, through mvn)
# into one dir. -B: no colour/progress noise; jars land in ~/.m2 too, so
# re-installs are offline-fast. Copied into a temp dir and renamed, so a
# killed run never leaves a half-filled dir that looks complete.
maven_jars() { # name pom outdir
  command -v java >/dev/null || die "$1: java not found (Java 17 is expected)"
  command -v mvn >/dev/null || die "$1: mvn not found"
  rm -rf "$3.tmp"
  run_logged "$(dirname "$2")/install.log" "$1: maven fetch of the jars in $2" \
    mvn -B -q -Dstyle.color=never -f "$2" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$3.tmp"
  rm -rf "$3"
  mv "$3.tmp" "$3"
}

# Refuse to start when a foreign process already holds our port: otherwise a
# test would silently talk to the wrong server.
ensure_port_free() { # name port [variable to override it]
  if port_open "$2"; then
    die "$1: port $HOST:$2 is already in use by another process (not ours). Stop it or set ${3:-RDE_${1^^}_PORT}."
  fi
}

# Installs share the cache dir across state dirs and concurrent callers,
# hence the lock; <name>_install itself skips what is already there.
install_locked() { # name
  mkdir -p "$CACHE_DIR"
  (
    flock 8
    "${1}_install"
  ) 8>"$CACHE_DIR/.install.lock"
}

# ----------------------------------------------------------------- servers --
SERVERS=()
for file in "$BACKENDS_SRC"/*.sh; do
  [[ -e $file ]] || continue
  # shellcheck source=/dev/null
  source "$file"
  SERVERS+=("$(basename "$file" .sh)")
done
unset file
((${#SERVERS[@]})) || die "no server files in $BACKENDS_SRC"

known_server() { local s; for s in "${SERVERS[@]}"; do [[ $s == "$1" ]] && return 0; done; return 1; }

# ---------------------------------------------------------------- commands --
cmd_start() {
  local s t0
  for s in "$@"; do
    t0=$(now)
    install_locked "$s"
    log "$s: installed ($(since "$t0"))"
    t0=$(now)
    "${s}_start"
    log "$s: ready in $(since "$t0")"
    # e.g. "kafka 3.9.2 RDE_KAFKA_BROKERS=127.0.0.1:19092"
    echo "$s $("${s}_version") $("${s}_env" | sed 's/^export //' | paste -sd' ')"
  done
}

cmd_stop() {
  local s wipe=$1; shift
  for s in "$@"; do
    "${s}_stop"
    if [[ $wipe == 1 ]]; then
      rm -rf "${STATE_DIR:?}/$s"
      echo "$s data wiped"
    fi
  done
}

cmd_status() {
  local s rc=0
  for s in "$@"; do
    if "${s}_ready"; then echo "$s up $("${s}_version")"; else echo "$s down"; rc=3; fi
  done
  return $rc
}

cmd_env() { local s; for s in "$@"; do "${s}_env"; done; }

usage() {
  log "usage: deploy/backends.sh start|stop|status|env [name ...]   (names: ${SERVERS[*]})"
  log "       deploy/backends.sh stop --wipe [name ...]   also delete data dirs"
  log "       deploy/backends.sh <name>-run [args]        a server's tool runner, e.g. kafka-run CLASS"
  exit 2
}

main() {
  (($# >= 1)) || usage
  local cmd=$1 wipe=0 s; shift
  if [[ $cmd == *-run ]]; then
    s=${cmd%-run}
    known_server "$s" && declare -F "${s}_run" >/dev/null || usage
    install_locked "$s"
    "${s}_run" "$@"
    return
  fi
  if [[ $cmd == stop && ${1:-} == --wipe ]]; then wipe=1; shift; fi
  local servers=("$@")
  ((${#servers[@]})) || servers=("${SERVERS[@]}")
  for s in "${servers[@]}"; do
    known_server "$s" || { log "unknown server: $s"; usage; }
  done
  case $cmd in
    env) cmd_env "${servers[@]}"; return ;;
    status) cmd_status "${servers[@]}"; return ;;
    start | stop) ;;
    *) usage ;;
  esac
  mkdir -p "$STATE_DIR"
  # One start/stop at a time per state dir (parallel test runners).
  exec 9>"$STATE_DIR/.lock"
  flock 9
  case $cmd in
    start) cmd_start "${servers[@]}" ;;
    stop) cmd_stop "$wipe" "${servers[@]}" ;;
  esac
}

main "$@"

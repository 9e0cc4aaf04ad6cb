#!/usr/bin/env bash
# A local distributed RDE in one command, for people who want to watch the microservices run:
# the real backends (deploy/backends.sh) and every module as its own process, two replicas of
# each money writer (billing, catalog, waterfall) as the chart runs them.
#
#   deploy/local.sh up       build, start everything, print the gateway URL and a fresh owner key
#   deploy/local.sh logs     follow every process's log, readable (pino-pretty)
#   deploy/local.sh status   each process and the gateway's readiness
#   deploy/local.sh down     stop what `up` started (of the backends, only those that were down)
#
# `up` fails fast: when a process it launched exits before the gateway is ready, it names it and
# prints its last log lines (on a readiness timeout, the gateway's), stops everything it started
# (as `down`, also when interrupted) and exits non-zero.
#
# Variables (all optional; two stacks with different ones run side by side):
#   RDE_LOCAL_PORT            the gateway's port (18080); the sandbox takes +10, gRPC replicas +100…,
#                             metrics +200…: every port lies within RDE_LOCAL_PORT … +299
#   RDE_LOCAL_STATE           the directory of the pid and log files (.rde/local)
#   RDE_LOCAL_NAMESPACE       prefix of the stack's databases, topics and keys (local_)
#   RDE_LOCAL_READY_SECONDS   how long `up` waits for the gateway's readiness (120)
#   RDE_LOCAL_SKIP_BOOTSTRAP  1: `up` does not run deploy/bootstrap.sh (already built)
# With RDE_MONGO_URL, RDE_KAFKA_BROKERS and RDE_REDIS_URL all set, those servers are used instead.
# Every other RDE_* variable in the environment reaches every process.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${RDE_LOCAL_STATE:-$root/.rde/local}"
base_port="${RDE_LOCAL_PORT:-18080}"
namespace="${RDE_LOCAL_NAMESPACE:-local_}"
ready_seconds="${RDE_LOCAL_READY_SECONDS:-120}"
bin="$root/services/rde/dist/bin.js"
pretty="$root/node_modules/.bin/pino-pretty"

SERVICES=(auth billing catalog waterfall dataset workflow mcp)
MONEY_WRITERS=" billing catalog waterfall "
# Lines of a dead process's log that a failed `up` prints.
TAIL_LINES=20

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

# Bad settings stop every command before it touches anything.
check_settings() {
  if ! [[ "$base_port" =~ ^[0-9]+$ ]] || ((base_port < 1 || base_port + 299 > 65535)); then
    echo "RDE_LOCAL_PORT=\"$base_port\" is invalid: a port from 1 to 65236 (the stack uses it … +299)" >&2
    exit 2
  fi
  if ! [[ "$ready_seconds" =~ ^[0-9]+$ ]]; then
    echo "RDE_LOCAL_READY_SECONDS=\"$ready_seconds\" is invalid: whole seconds" >&2
    exit 2
  fi
}

replicas_of() { [[ "$MONEY_WRITERS" == *" $1 "* ]] && echo 2 || echo 1; }

# Starts one process in the background; its pid and log live in $state.
launch() {
  local name="$1"; shift
  env "$@" node "$bin" start --target="${name%-*}" >>"$state/$name.log" 2>&1 &
  echo "$!" >"$state/$name.pid"
}

# A process is alive while it runs: a zombie (exited, its parent gone and not reaped) is not.
alive() {
  local stat
  [ -f "$1" ] || return 1
  stat="$(ps -o stat= -p "$(cat "$1")" 2>/dev/null)" || return 1
  [[ -n "$stat" && "$stat" != Z* ]]
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

ready() { curl -fs --max-time 2 "http://127.0.0.1:$base_port/ready" >/dev/null 2>&1; }

print_tail() {
  echo "the last $TAIL_LINES lines of $state/$1.log:" >&2
  tail -n "$TAIL_LINES" "$state/$1.log" | sed 's/^/  /' >&2
}

# Fails `up` when one of its processes has exited, naming it (its exit status is known to this shell).
watch_processes() {
  local pid name status
  for pid in "$state"/*.pid; do
    alive "$pid" && continue
    name="$(basename "$pid" .pid)" status=0
    wait "$(cat "$pid")" 2>/dev/null || status=$?
    echo "$name exited (status $status) before the gateway was ready" >&2
    print_tail "$name"
    exit 1
  done
}

await_ready() {
  local deadline=$((SECONDS + ready_seconds))
  until ready; do
    watch_processes
    if ((SECONDS >= deadline)); then
      echo "the gateway did not become ready within $ready_seconds s" >&2
      print_tail gateway-1
      exit 1
    fi
    sleep 0.5
  done
}

# A failed or interrupted `up` leaves nothing running: it stops what it started, as `down` does.
abandon_failed_up() {
  local status=$?
  ((status == 0)) && return
  echo "up failed; stopping what it started" >&2
  down
}

up() {
  if compgen -G "$state/*.pid" >/dev/null; then
    for pid in "$state"/*.pid; do alive "$pid" && { echo "already up; deploy/local.sh status" >&2; exit 1; }; done
  fi
  mkdir -p "$state" && rm -f "$state"/*.log "$state"/*.pid "$state/backends.started"
  trap abandon_failed_up EXIT
  trap 'exit 130' INT TERM
  [ "${RDE_LOCAL_SKIP_BOOTSTRAP:-}" = 1 ] || "$root/deploy/bootstrap.sh"
  if [ -z "${RDE_MONGO_URL:-}" ] || [ -z "${RDE_KAFKA_BROKERS:-}" ] || [ -z "${RDE_REDIS_URL:-}" ]; then
    # Only the backends that were down are started here, and only those are stopped by `down`.
    "$root/deploy/backends.sh" status 2>/dev/null | awk '$2 != "up" {print $1}' >"$state/backends.started" || true
    if [ -s "$state/backends.started" ]; then
      # shellcheck disable=SC2046
      "$root/deploy/backends.sh" start $(cat "$state/backends.started")
    fi
    eval "$("$root/deploy/backends.sh" env)"
  fi
  local gateway="http://127.0.0.1:$base_port"
  local -a common=(
    RDE_MONGO_URL="$RDE_MONGO_URL" RDE_KAFKA_BROKERS="$RDE_KAFKA_BROKERS" RDE_REDIS_URL="$RDE_REDIS_URL"
    RDE_NAMESPACE="$namespace" RDE_SANDBOX_PORT="$((base_port + 10))" RDE_SANDBOX_ADDR="http://127.0.0.1:$((base_port + 10))"
    RDE_GATEWAY_ADDR="$gateway" RDE_LOG_LEVEL="${RDE_LOG_LEVEL:-info}"
  )
  # Every replica gets its own port; callers get the list of a service's replicas (`ip:port,ip:port`).
  local port=$((base_port + 100)) service replica
  declare -A ports=()
  for service in "${SERVICES[@]}"; do
    local addresses=()
    for ((replica = 1; replica <= $(replicas_of "$service"); replica++)); do
      ports["$service-$replica"]=$port
      addresses+=("127.0.0.1:$port")
      port=$((port + 1))
    done
    common+=("RDE_${service^^}_ADDR=$(IFS=,; echo "${addresses[*]}")")
  done
  local metrics=$((base_port + 200)) taken
  for taken in "$base_port" "$((base_port + 10))" "${ports[@]}" $(seq "$metrics" $((metrics + ${#ports[@]} + 1))); do
    listening "$taken" && { echo "port $taken is in use; RDE_LOCAL_PORT moves every port of the stack" >&2; exit 1; }
  done
  launch sandbox-1 "${common[@]}" RDE_METRICS_PORT=$metrics
  local name module
  for name in "${!ports[@]}"; do
    module="${name%-*}"
    metrics=$((metrics + 1))
    launch "$name" "${common[@]}" "RDE_${module^^}_PORT=${ports[$name]}" RDE_METRICS_PORT=$metrics
  done
  launch gateway-1 "${common[@]}" PORT="$base_port" RDE_METRICS_PORT=$((metrics + 1))
  await_ready
  local created
  created="$(env "${common[@]}" RDE_AUTH_ADDR="127.0.0.1:${ports[auth-1]}" node "$bin" admin create-workspace \
    --email "local-$(date +%s)@example.com" --name local)"
  trap - EXIT INT TERM
  local launched=("$state"/*.pid)
  cat <<DONE
RDE is up: ${#launched[@]} processes (two replicas of billing, catalog, waterfall).
  gateway     $gateway            (curl $gateway/ready)
  owner key   $(node -p 'JSON.parse(process.argv[1]).key' "$created")
  metrics     http://127.0.0.1:$((base_port + 200))/metrics … one port per process
  logs        deploy/local.sh logs
  stop        deploy/local.sh down
DONE
}

logs() { tail -n 20 -F "$state"/*.log | "$pretty" --colorize --ignore hostname; }

status() {
  local down=0
  for pid in "$state"/*.pid; do
    [ -f "$pid" ] || { echo "not up"; return 3; }
    if alive "$pid"; then echo "up    $(basename "$pid" .pid)"; else echo "down  $(basename "$pid" .pid)"; down=1; fi
  done
  if ready; then echo "gateway ready at http://127.0.0.1:$base_port"; else echo "gateway not ready"; down=1; fi
  return $((down * 3))
}

down() {
  local pid
  for pid in "$state"/*.pid; do
    [ -f "$pid" ] || continue
    alive "$pid" && kill -TERM "$(cat "$pid")"
  done
  for pid in "$state"/*.pid; do
    [ -f "$pid" ] || continue
    for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.2; done
    alive "$pid" && kill -KILL "$(cat "$pid")"
    rm -f "$pid"
  done
  if [ -s "$state/backends.started" ]; then
    # shellcheck disable=SC2046
    "$root/deploy/backends.sh" stop $(cat "$state/backends.started")
  fi
  rm -f "$state/backends.started"
}

check_settings
case "${1:-}" in
  up | logs | status | down) "$1" ;;
  *) usage; exit 2 ;;
esac

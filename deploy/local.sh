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
# Ports: the gateway on RDE_LOCAL_PORT (default 18080); gRPC replicas from RDE_LOCAL_PORT + 100.
# With RDE_MONGO_URL, RDE_KAFKA_BROKERS and RDE_REDIS_URL all set, those servers are used instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="$root/.rde/local"
base_port="${RDE_LOCAL_PORT:-18080}"
bin="$root/services/rde/dist/bin.js"
pretty="$root/node_modules/.bin/pino-pretty"

SERVICES=(auth billing catalog waterfall dataset workflow mcp)
MONEY_WRITERS=" billing catalog waterfall "

replicas_of() { [[ "$MONEY_WRITERS" == *" $1 "* ]] && echo 2 || echo 1; }

# Starts one process in the background; its pid and log live under .rde/local.
launch() {
  local name="$1"; shift
  env "$@" node "$bin" start --target="${name%-*}" >>"$state/$name.log" 2>&1 &
  echo "$!" >"$state/$name.pid"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

up() {
  if compgen -G "$state/*.pid" >/dev/null; then
    for pid in "$state"/*.pid; do alive "$pid" && { echo "already up; deploy/local.sh status" >&2; exit 1; }; done
  fi
  mkdir -p "$state" && rm -f "$state"/*.log "$state"/*.pid "$state/backends.started"
  "$root/deploy/bootstrap.sh"
  if [ -z "${RDE_MONGO_URL:-}" ] || [ -z "${RDE_KAFKA_BROKERS:-}" ] || [ -z "${RDE_REDIS_URL:-}" ]; then
    # Only the backends that were down are started here, and only those are stopped by `down`.
    "$root/deploy/backends.sh" status 2>/dev/null | awk '$2 != "up" {print $1}' >"$state/backends.started" || true
    if [ -s "$state/backends.started" ]; then
      # shellcheck disable=SC2046
      "$root/deploy/backends.sh" start $(cat "$state/backends.started")
    fi
    eval "$("$root/deploy/backends.sh" env)"
  fi
  local -a common=(
    RDE_MONGO_URL="$RDE_MONGO_URL" RDE_KAFKA_BROKERS="$RDE_KAFKA_BROKERS" RDE_REDIS_URL="$RDE_REDIS_URL"
    RDE_NAMESPACE="local_" RDE_SANDBOX_PORT="$((base_port + 10))" RDE_SANDBOX_ADDR="http://127.0.0.1:$((base_port + 10))"
    RDE_LOG_LEVEL="${RDE_LOG_LEVEL:-info}"
  )
  # Every replica gets its own port; callers get all of a service's replicas (grpc-js ipv4: list).
  local port=$((base_port + 100)) service replica
  declare -A ports=()
  for service in "${SERVICES[@]}"; do
    local addresses=()
    for ((replica = 1; replica <= $(replicas_of "$service"); replica++)); do
      ports["$service-$replica"]=$port
      addresses+=("127.0.0.1:$port")
      port=$((port + 1))
    done
    common+=("RDE_${service^^}_ADDR=ipv4:$(IFS=,; echo "${addresses[*]}")")
  done
  local metrics=$((base_port + 200))
  launch sandbox-1 "${common[@]}" RDE_METRICS_PORT=$metrics
  local name module
  for name in "${!ports[@]}"; do
    module="${name%-*}"
    metrics=$((metrics + 1))
    launch "$name" "${common[@]}" "RDE_${module^^}_PORT=${ports[$name]}" RDE_METRICS_PORT=$metrics
  done
  launch gateway-1 "${common[@]}" PORT="$base_port" RDE_METRICS_PORT=$((metrics + 1))
  local gateway="http://127.0.0.1:$base_port"
  for _ in $(seq 1 120); do
    curl -fs "$gateway/ready" >/dev/null 2>&1 && break
    sleep 1
  done
  if ! curl -fs "$gateway/ready" >/dev/null 2>&1; then
    echo "the gateway did not become ready; logs in $state" >&2
    exit 1
  fi
  local created
  created="$(env "${common[@]}" RDE_AUTH_ADDR="127.0.0.1:${ports[auth-1]}" node "$bin" admin create-workspace \
    --email "local-$(date +%s)@example.com" --name local)"
  cat <<DONE
RDE is up: $(ls "$state"/*.pid | wc -l) processes (two replicas of billing, catalog, waterfall).
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
  curl -fs "http://127.0.0.1:$base_port/ready" >/dev/null && echo "gateway ready at http://127.0.0.1:$base_port" \
    || { echo "gateway not ready"; down=1; }
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

case "${1:-}" in
  up | logs | status | down) "$1" ;;
  *) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

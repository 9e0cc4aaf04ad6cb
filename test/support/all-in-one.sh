# Sourced by the tool runs (test/schemathesis/run, test/conformance/run): starts the all-in-one with
# its embedded adapters, whatever servers the test command started, and a fresh dev key. PORT=0:
# the gateway binds a free port and logs it, so no other process can take it first; every service's
# gRPC port is 0 too, so a run never collides with another all-in-one on the default ports. The dev
# workspace keeps its 100 free credits (no starting grant), as the runs were written against.
#   start_all_in_one <log file> <dev key> [VAR=value...]
# sets rde_pid and port; stop_all_in_one stops it.

# GET url [bearer]: prints the body, fails on a non-2xx answer (node only, no curl needed).
get() {
  node -e '
    const [url, key] = process.argv.slice(1);
    fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} })
      .then(async (r) => { process.stdout.write(await r.text()); process.exit(r.ok ? 0 : 1); })
      .catch(() => process.exit(1));' "$@"
}

start_all_in_one() {
  local log="$1" key="$2" root
  shift 2
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  env -u RDE_MONGO_URL -u RDE_KAFKA_BROKERS -u RDE_REDIS_URL \
    PORT=0 RDE_AUTH_PORT=0 RDE_BILLING_PORT=0 RDE_CATALOG_PORT=0 RDE_WATERFALL_PORT=0 RDE_DATASET_PORT=0 \
    RDE_WORKFLOW_PORT=0 RDE_MCP_PORT=0 RDE_DEV_API_KEY="$key" RDE_DEV_GRANT_CREDITS=0 RDE_LOG_LEVEL=info "$@" \
    node "$root/services/rde/dist/bin.js" start >"$log" 2>&1 &
  rde_pid=$!
  port=''
  for _ in $(seq 1 600); do
    port="$(sed -n 's/.*"port":\([0-9]*\).*"msg":"gateway listening".*/\1/p' "$log" | head -n1)"
    [ -n "$port" ] && get "http://127.0.0.1:$port/ready" >/dev/null 2>&1 && return 0
    kill -0 "$rde_pid" 2>/dev/null || { cat "$log"; echo "RDE did not start"; return 1; }
    sleep 0.1
  done
  cat "$log"
  echo "RDE did not become ready"
  return 1
}

stop_all_in_one() {
  [ -n "${rde_pid:-}" ] && kill "$rde_pid" 2>/dev/null && wait "$rde_pid" 2>/dev/null
}

# deploy/backends/oidc.sh — a local OpenID provider (the `oidc-provider` npm
# package, test/support/oidc-provider.mjs) on 127.0.0.1:${RDE_OIDC_PORT:-18990},
# standing in for the external identity provider ("Google") in local runs.
# Sourced by deploy/backends.sh, whose helpers it uses.
#
# Installed with the workspace's packages (deploy/bootstrap.sh), so there is
# nothing to download here. It registers one client for a gateway on
# ${RDE_OIDC_GATEWAY_URL:-http://127.0.0.1:8080}; tests start their own
# instance per suite (test/e2e/oidc.ts), because each test deployment's
# callback URL has its own port.
# Outside deploy/local.sh's ports (18080 and up), so both can run at once.
OIDC_PORT=${RDE_OIDC_PORT:-18990}
OIDC_GATEWAY_URL=${RDE_OIDC_GATEWAY_URL:-http://127.0.0.1:8080}
OIDC_DIR=$STATE_DIR/oidc
OIDC_PID=$OIDC_DIR/oidc.pid
OIDC_LOG=$OIDC_DIR/oidc.log
OIDC_SCRIPT=$(cd "$BACKENDS_SRC/../.." && pwd)/test/support/oidc-provider.mjs
# Any checkout's provider counts as ours, as the other backends' do.
OIDC_MARKER=test/support/oidc-provider.mjs
OIDC_CLIENT_ID=rde-local
OIDC_CLIENT_SECRET=rde-local-secret-for-development-only

oidc_install() {
  [[ -d $(dirname "$OIDC_SCRIPT")/../node_modules/oidc-provider ]] ||
    die "oidc: the oidc-provider package is missing; run deploy/bootstrap.sh first"
}

oidc_answers() {
  port_open "$OIDC_PORT"
}

oidc_start() {
  if live_pid "$OIDC_PID" "$OIDC_MARKER" >/dev/null; then
    wait_ready oidc "$OIDC_PID" "$OIDC_MARKER" "$OIDC_LOG" oidc_answers
    return 0
  fi
  ensure_port_free oidc "$OIDC_PORT"
  mkdir -p "$OIDC_DIR"
  rotate_log "$OIDC_LOG"
  OIDC_PORT=$OIDC_PORT \
    OIDC_CLIENTS="[{\"client_id\":\"$OIDC_CLIENT_ID\",\"client_secret\":\"$OIDC_CLIENT_SECRET\",\"redirect_uris\":[\"$OIDC_GATEWAY_URL/api/v2/auth/oauth/google/callback\"]}]" \
    launch "$OIDC_PID" "$OIDC_LOG" node "$OIDC_SCRIPT"
  wait_ready oidc "$OIDC_PID" "$OIDC_MARKER" "$OIDC_LOG" oidc_answers
}

oidc_ready() { live_pid "$OIDC_PID" "$OIDC_MARKER" >/dev/null && oidc_answers; }
oidc_version() { node -p "require('$(dirname "$OIDC_SCRIPT")/../node_modules/oidc-provider/package.json').version"; }
oidc_stop() { stop_pid oidc "$OIDC_PID" "$OIDC_MARKER" 20; }
# Not RDE_GOOGLE_* themselves: the test command exports every backend's env,
# and suites decide for themselves whether sign-in with a provider is on.
# For a local run: RDE_GOOGLE_ISSUER=$RDE_OIDC_ISSUER RDE_GOOGLE_CLIENT_ID=rde-local
# RDE_GOOGLE_CLIENT_SECRET=rde-local-secret-for-development-only.
oidc_env() { echo "export RDE_OIDC_ISSUER=http://$HOST:$OIDC_PORT"; }

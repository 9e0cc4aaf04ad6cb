# deploy/backends/stripe-mock.sh — stripe-mock (the payment provider's official API mock) on
# http://127.0.0.1:${RDE_STRIPE_MOCK_PORT:-12111}. Sourced by deploy/backends.sh, whose helpers
# it uses.
#
# Built from the Go module proxy with `go install` into the cache. It keeps no state and sends
# no webhooks: tests drive subscription state with webhook events they sign themselves.
STRIPE_MOCK_VERSION=${RDE_STRIPE_MOCK_VERSION:-v0.203.0}
STRIPE_MOCK_PORT=${RDE_STRIPE_MOCK_PORT:-12111}
STRIPE_MOCK_BIN=$CACHE_DIR/stripe-mock-$STRIPE_MOCK_VERSION/bin/stripe-mock
STRIPE_MOCK_DIR=$STATE_DIR/stripe-mock
STRIPE_MOCK_PID=$STRIPE_MOCK_DIR/stripe-mock.pid
STRIPE_MOCK_LOG=$STRIPE_MOCK_DIR/stripe-mock.log
STRIPE_MOCK_MARKER="-http-addr $HOST:$STRIPE_MOCK_PORT"

stripe-mock_install() {
  [[ ! -x $STRIPE_MOCK_BIN ]] || return 0
  command -v go >/dev/null || die "stripe-mock: go not found"
  log "stripe-mock: building stripe-mock $STRIPE_MOCK_VERSION with Go (first run only)"
  mkdir -p "$CACHE_DIR"
  # GOTOOLCHAIN=local: never download another Go toolchain.
  GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOBIN=$(dirname "$STRIPE_MOCK_BIN") \
    run_logged "$CACHE_DIR/stripe-mock-$STRIPE_MOCK_VERSION.log" "stripe-mock: go install" \
    go install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION"
}

# Any HTTP answer means it listens (without a key it answers 401).
stripe-mock_answers() {
  curl -s -o /dev/null --max-time 2 "http://$HOST:$STRIPE_MOCK_PORT/v1/customers" 2>/dev/null
}

stripe-mock_start() {
  if ! live_pid "$STRIPE_MOCK_PID" "$STRIPE_MOCK_MARKER" >/dev/null; then
    ensure_port_free stripe-mock "$STRIPE_MOCK_PORT" RDE_STRIPE_MOCK_PORT
    mkdir -p "$STRIPE_MOCK_DIR"
    rotate_log "$STRIPE_MOCK_LOG"
    # shellcheck disable=SC2086 # the marker is two words on purpose
    launch "$STRIPE_MOCK_PID" "$STRIPE_MOCK_LOG" "$STRIPE_MOCK_BIN" $STRIPE_MOCK_MARKER
  fi
  wait_ready stripe-mock "$STRIPE_MOCK_PID" "$STRIPE_MOCK_MARKER" "$STRIPE_MOCK_LOG" stripe-mock_answers
}

stripe-mock_ready() { live_pid "$STRIPE_MOCK_PID" "$STRIPE_MOCK_MARKER" >/dev/null && stripe-mock_answers; }
stripe-mock_version() { echo "$STRIPE_MOCK_VERSION"; }
stripe-mock_stop() { stop_pid stripe-mock "$STRIPE_MOCK_PID" "$STRIPE_MOCK_MARKER" 10; }
stripe-mock_env() { echo "export RDE_STRIPE_API_BASE=http://$HOST:$STRIPE_MOCK_PORT"; }

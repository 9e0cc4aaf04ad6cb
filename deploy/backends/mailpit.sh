# deploy/backends/mailpit.sh — Mailpit, a real SMTP server that keeps what it
# receives and shows it over HTTP: SMTP on 127.0.0.1:${RDE_MAILPIT_SMTP_PORT:-11025},
# its API on 127.0.0.1:${RDE_MAILPIT_HTTP_PORT:-18025}.
# Sourced by deploy/backends.sh, whose helpers it uses.
#
# Built from the Go module proxy with `go install` (cached). Recipients in
# the reserved `.invalid` domain (RFC 2606) are refused at RCPT TO, so tests
# can make a delivery fail on purpose while every other address is accepted.
MAILPIT_VERSION=v1.27.11
MAILPIT_SMTP_PORT=${RDE_MAILPIT_SMTP_PORT:-11025}
MAILPIT_HTTP_PORT=${RDE_MAILPIT_HTTP_PORT:-18025}
MAILPIT_BIN=$CACHE_DIR/bin/mailpit-$MAILPIT_VERSION
MAILPIT_DIR=$STATE_DIR/mailpit
MAILPIT_PID=$MAILPIT_DIR/mailpit.pid
MAILPIT_LOG=$MAILPIT_DIR/mailpit.log
MAILPIT_MARKER=--smtp=$HOST:$MAILPIT_SMTP_PORT
# Go's regexp has no negative lookahead: accept every address whose domain
# does not end in `.invalid`, spelled as "ends in anything but that suffix".
MAILPIT_ALLOWED='^.*@.*([^d]|[^i]d|[^l]id|[^a]lid|[^v]alid|[^n]valid|[^i]nvalid|[^.]invalid)$'

mailpit_install() {
  [[ -x $MAILPIT_BIN ]] && return 0
  command -v go >/dev/null || die "mailpit: go not found"
  log "mailpit: building Mailpit $MAILPIT_VERSION with Go (first run only)"
  local gobin=$CACHE_DIR/mailpit-gobin-$MAILPIT_VERSION
  # GOTOOLCHAIN=local: never download another Go toolchain; the SQLite driver is pure Go.
  GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOBIN=$gobin \
    run_logged "$CACHE_DIR/mailpit-$MAILPIT_VERSION-build.log" "mailpit: go install" \
    go install "github.com/axllent/mailpit@$MAILPIT_VERSION"
  mkdir -p "$(dirname "$MAILPIT_BIN")"
  mv "$gobin/mailpit" "$MAILPIT_BIN"
  rm -rf "$gobin"
}

mailpit_answers() {
  port_open "$MAILPIT_SMTP_PORT" && port_open "$MAILPIT_HTTP_PORT"
}

mailpit_start() {
  if live_pid "$MAILPIT_PID" "$MAILPIT_MARKER" >/dev/null; then
    wait_ready mailpit "$MAILPIT_PID" "$MAILPIT_MARKER" "$MAILPIT_LOG" mailpit_answers
    return 0
  fi
  ensure_port_free mailpit "$MAILPIT_SMTP_PORT" RDE_MAILPIT_SMTP_PORT
  ensure_port_free mailpit "$MAILPIT_HTTP_PORT" RDE_MAILPIT_HTTP_PORT
  mkdir -p "$MAILPIT_DIR"
  rotate_log "$MAILPIT_LOG"
  # No --database: messages live in a temporary database removed at exit.
  launch "$MAILPIT_PID" "$MAILPIT_LOG" "$MAILPIT_BIN" \
    "--smtp=$HOST:$MAILPIT_SMTP_PORT" "--listen=$HOST:$MAILPIT_HTTP_PORT" \
    --smtp-auth-accept-any --smtp-auth-allow-insecure --smtp-disable-rdns \
    --max=5000 "--smtp-allowed-recipients=$MAILPIT_ALLOWED"
  wait_ready mailpit "$MAILPIT_PID" "$MAILPIT_MARKER" "$MAILPIT_LOG" mailpit_answers
}

mailpit_ready() { live_pid "$MAILPIT_PID" "$MAILPIT_MARKER" >/dev/null && mailpit_answers; }
mailpit_version() { echo "$MAILPIT_VERSION"; }
mailpit_stop() { stop_pid mailpit "$MAILPIT_PID" "$MAILPIT_MARKER" 20; }
mailpit_env() {
  echo "export RDE_SMTP_URL=smtp://$HOST:$MAILPIT_SMTP_PORT"
  echo "export RDE_MAILPIT_URL=http://$HOST:$MAILPIT_HTTP_PORT"
}

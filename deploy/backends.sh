#!/usr/bin/env bash
# deploy/backends.sh — start, check and stop the three real backends RDE's
# tests and local runs talk to, all on loopback and on non-default ports:
#
#   Kafka (KRaft, single node)   127.0.0.1:${RDE_KAFKA_PORT:-19092}
#   FerretDB (SQLite handler)    127.0.0.1:${RDE_FERRETDB_PORT:-27018}
#   Redis                        127.0.0.1:${RDE_REDIS_PORT:-16379}
#
# Usage: deploy/backends.sh start|stop|status|env [kafka|ferretdb|redis ...]
#        deploy/backends.sh stop --wipe [names]     also delete data dirs
#        deploy/backends.sh kafka-run CLASS [args]  run a Kafka tool class
#
# Nothing here needs Docker or anything beyond what the machine has (Java 17 +
# Maven, Go, Node, apt): Kafka's jars come from Maven Central, FerretDB is
# built from the Go module proxy, Redis comes from Debian's package.
# Downloads and builds are cached under $RDE_CACHE_DIR (outside the repo) so
# only the first run is slow; runtime state (data, logs, pid files) lives
# under $RDE_BACKENDS_DIR. Every command is idempotent.
set -euo pipefail

# ---------------------------------------------------------------- settings --
CACHE_DIR=${RDE_CACHE_DIR:-$HOME/.cache/rde}
STATE_DIR=${RDE_BACKENDS_DIR:-/tmp/rde-backends}
HOST=127.0.0.1                       # loopback only, never a real interface

KAFKA_VERSION=${RDE_KAFKA_VERSION:-3.9.2}
KAFKA_PORT=${RDE_KAFKA_PORT:-19092}
KAFKA_CONTROLLER_PORT=${RDE_KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}
KAFKA_HEAP=${RDE_KAFKA_HEAP:--Xmx512m}
# Fixed cluster id (base64url of the 16 bytes "RDE-local-kafka1") so the
# storage format step is reproducible and never mismatches an existing dir.
KAFKA_CLUSTER_ID=UkRFLWxvY2FsLWthZmthMQ

FERRETDB_VERSION=${RDE_FERRETDB_VERSION:-v1.24.2}
FERRETDB_PORT=${RDE_FERRETDB_PORT:-27018}

REDIS_PORT=${RDE_REDIS_PORT:-16379}

# Seconds each server may take to answer after it was launched.
TIMEOUT=${RDE_BACKENDS_TIMEOUT:-120}

ALL_SERVERS=(redis ferretdb kafka)   # start order: fastest first

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

# Wait until `check_fn` succeeds, up to TIMEOUT seconds. Fails loudly (with
# the last 40 lines of the server's log) if the process dies or time runs out.
wait_ready() { # name pidfile marker logfile check_fn
  local name=$1 pidfile=$2 marker=$3 logfile=$4 check=$5 t0=$SECONDS
  while :; do
    if ! live_pid "$pidfile" "$marker" >/dev/null; then
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

# Refuse to start when a foreign process already holds our port: otherwise a
# test would silently talk to the wrong server.
ensure_port_free() { # name port
  if port_open "$2"; then
    die "$1: port $HOST:$2 is already in use by another process (not ours). Stop it or set RDE_${1^^}_PORT."
  fi
}

# Install server $1 unless already there. Installs share the cache dir
# across state dirs and concurrent callers, hence the lock; the check is
# repeated under the lock because another caller may have just finished.
install_once() { # name
  "${1}_installed" && return 0
  mkdir -p "$CACHE_DIR"
  (
    flock 8
    "${1}_installed" || "${1}_install"
  ) 8>"$CACHE_DIR/.install.lock"
}

# =================================================================== Kafka ==
# Kafka runs from its Maven Central jars: a generated pom (in the cache, not
# in the repo) lists kafka_2.13 + kafka-tools + a log binding, and
# `mvn dependency:copy-dependencies` lays all jars into one lib dir.
KAFKA_HOME=$CACHE_DIR/kafka-$KAFKA_VERSION
KAFKA_LIB=$KAFKA_HOME/lib
KAFKA_DIR=$STATE_DIR/kafka
KAFKA_PID=$KAFKA_DIR/kafka.pid
KAFKA_LOG=$KAFKA_DIR/kafka.log
KAFKA_MARKER=$KAFKA_DIR/server.properties

kafka_major() { echo "${KAFKA_VERSION%%.*}"; }

kafka_installed() { [[ -f $KAFKA_HOME/.installed ]]; }
kafka_install() {
  command -v java >/dev/null || die "kafka: java not found (Java 17 is expected)"
  command -v mvn >/dev/null || die "kafka: mvn not found"
  log "kafka: fetching Kafka $KAFKA_VERSION jars with Maven (first run only)"
  mkdir -p "$KAFKA_HOME"
  # Kafka 3.x logs through log4j 1 (reload4j); 4.x moved to log4j2 (still on
  # slf4j 1.7, hence log4j-slf4j-impl and not the slf4j2 binding).
  local logdeps
  if (($(kafka_major) >= 4)); then
    logdeps='
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.24.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.24.3</version></dependency>'
  else
    logdeps='
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>'
  fi
  cat >"$KAFKA_HOME/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by RDE deploy/backends.sh: only used to download Kafka's jars. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.rde</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>$KAFKA_VERSION</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <!-- console producer/consumer, topic and group commands -->
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$KAFKA_VERSION</version></dependency>$logdeps
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.6.1</version>
      </plugin>
    </plugins>
  </build>
</project>
EOF
  rm -rf "$KAFKA_LIB.tmp"
  # -B: no colour/progress noise; jars land in ~/.m2 too, so re-installs are
  # offline-fast. Copy into a temp dir and rename, so a killed run never
  # leaves a half-filled lib dir that looks installed.
  run_logged "$KAFKA_HOME/install.log" "kafka: maven fetch of kafka_2.13:$KAFKA_VERSION" \
    mvn -B -q -Dstyle.color=never -f "$KAFKA_HOME/pom.xml" \
    dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$KAFKA_LIB.tmp"
  rm -rf "$KAFKA_LIB"
  mv "$KAFKA_LIB.tmp" "$KAFKA_LIB"
  touch "$KAFKA_HOME/.installed"
}

# Log config for the broker: everything goes to stdout, which launch()
# appends to $KAFKA_LOG (one file to read when something breaks).
kafka_write_config() {
  mkdir -p "$KAFKA_DIR/data"
  cat >"$KAFKA_DIR/server.properties" <<EOF
# Generated by deploy/backends.sh — single-node KRaft (broker + controller).
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_DIR/data
# One broker: internal topics cannot have more replicas than that.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Few partitions for internal topics: the group coordinator comes up fast.
offsets.topic.num.partitions=1
transaction.state.log.num.partitions=1
auto.create.topics.enable=true
num.partitions=3
# Tests want consumer groups to rebalance immediately.
group.initial.rebalance.delay.ms=0
log.retention.hours=24
EOF
  if (($(kafka_major) >= 4)); then
    cat >"$KAFKA_DIR/log4j2.properties" <<'EOF'
rootLogger.level=INFO
rootLogger.appenderRef.stdout.ref=STDOUT
appender.stdout.type=Console
appender.stdout.name=STDOUT
appender.stdout.layout.type=PatternLayout
appender.stdout.layout.pattern=[%d] %p %m (%c)%n
logger.kafkaRequest.name=kafka.request.logger
logger.kafkaRequest.level=WARN
EOF
    cat >"$KAFKA_DIR/tools-log4j2.properties" <<'EOF'
rootLogger.level=WARN
rootLogger.appenderRef.stderr.ref=STDERR
appender.stderr.type=Console
appender.stderr.name=STDERR
appender.stderr.target=SYSTEM_ERR
appender.stderr.layout.type=PatternLayout
appender.stderr.layout.pattern=[%d] %p %m (%c)%n
EOF
  else
    cat >"$KAFKA_DIR/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
EOF
    cat >"$KAFKA_DIR/tools-log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
  fi
}

# JVM flags selecting the right log config for the broker or for tools.
kafka_log_opts() { # broker|tools
  local prefix=; [[ $1 == tools ]] && prefix=tools-
  if (($(kafka_major) >= 4)); then
    echo "-Dlog4j2.configurationFile=$KAFKA_DIR/${prefix}log4j2.properties"
  else
    echo "-Dlog4j.configuration=file:$KAFKA_DIR/${prefix}log4j.properties"
  fi
}

# Run any Kafka class (tools) on the cached classpath, quiet logging.
kafka_run() { # class args...
  [[ -f $KAFKA_DIR/server.properties ]] || { mkdir -p "$KAFKA_DIR"; kafka_write_config; }
  java -Xmx256m "$(kafka_log_opts tools)" -cp "$KAFKA_LIB/*" "$@"
}

kafka_check() {
  port_open "$KAFKA_PORT" || return 1
  # A real broker API round trip, not just an open port.
  local cls=kafka.admin.BrokerApiVersionsCommand
  (($(kafka_major) >= 4)) && cls=org.apache.kafka.tools.BrokerApiVersionsCommand
  timeout 30 java -Xmx128m -XX:TieredStopAtLevel=1 "$(kafka_log_opts tools)" \
    -cp "$KAFKA_LIB/*" "$cls" --bootstrap-server "$HOST:$KAFKA_PORT" \
    2>/dev/null | grep -q "^$HOST:$KAFKA_PORT"
}

kafka_start() {
  if live_pid "$KAFKA_PID" "$KAFKA_MARKER" >/dev/null; then
    # Already ours: only make sure it answers (it may still be starting).
    wait_ready kafka "$KAFKA_PID" "$KAFKA_MARKER" "$KAFKA_LOG" kafka_check
    return 0
  fi
  ensure_port_free kafka "$KAFKA_PORT"
  ensure_port_free kafka "$KAFKA_CONTROLLER_PORT"
  kafka_write_config
  # KRaft needs its log dir formatted once, with the cluster id.
  if [[ ! -f $KAFKA_DIR/data/meta.properties ]]; then
    kafka_run kafka.tools.StorageTool format --ignore-formatted \
      -t "$KAFKA_CLUSTER_ID" -c "$KAFKA_DIR/server.properties" >/dev/null \
      || die "kafka: storage format failed"
  fi
  [[ -f $KAFKA_LOG ]] && mv -f "$KAFKA_LOG" "$KAFKA_LOG.1"
  # $KAFKA_HEAP unquoted on purpose: RDE_KAFKA_HEAP may hold several flags.
  # shellcheck disable=SC2086
  launch "$KAFKA_PID" "$KAFKA_LOG" \
    java -server $KAFKA_HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    "$(kafka_log_opts broker)" -Dkafka.logs.dir="$KAFKA_DIR" \
    -cp "$KAFKA_LIB/*" kafka.Kafka "$KAFKA_DIR/server.properties"
  wait_ready kafka "$KAFKA_PID" "$KAFKA_MARKER" "$KAFKA_LOG" kafka_check
}

kafka_version() { echo "$KAFKA_VERSION"; }
kafka_addr() { echo "$HOST:$KAFKA_PORT"; }
# Controlled shutdown of a single KRaft node takes a few seconds.
kafka_stop() { stop_pid kafka "$KAFKA_PID" "$KAFKA_MARKER" 60; }
kafka_up() { live_pid "$KAFKA_PID" "$KAFKA_MARKER" >/dev/null && port_open "$KAFKA_PORT"; }

# ================================================================ FerretDB ==
# Built from the Go module proxy. Pitfall: a plain `go install
# github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` builds, but the binary
# panics at start ("Invalid build/version/version.txt") because that file is
# generated by FerretDB's release tooling and not part of the module. So we
# copy the module source out of the module cache, write version.txt, and
# `go build` from there.
FERRETDB_BIN=$CACHE_DIR/bin/ferretdb-$FERRETDB_VERSION
FERRETDB_DIR=$STATE_DIR/ferretdb
FERRETDB_PID=$FERRETDB_DIR/ferretdb.pid
FERRETDB_LOG=$FERRETDB_DIR/ferretdb.log
FERRETDB_MARKER=--listen-addr=$HOST:$FERRETDB_PORT

ferretdb_installed() { [[ -x $FERRETDB_BIN ]]; }
ferretdb_install() {
  command -v go >/dev/null || die "ferretdb: go not found"
  log "ferretdb: building FerretDB $FERRETDB_VERSION with Go (first run only)"
  # GOTOOLCHAIN=local: never try to download another Go toolchain.
  export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0
  local moddir src=$CACHE_DIR/ferretdb-src-$FERRETDB_VERSION
  local buildlog=$CACHE_DIR/ferretdb-$FERRETDB_VERSION-build.log
  mkdir -p "$CACHE_DIR"
  run_logged "$buildlog" "ferretdb: go mod download" \
    go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION"
  moddir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' "$buildlog")
  [[ -d $moddir ]] || die "ferretdb: go mod download of $FERRETDB_VERSION gave no source dir"
  rm -rf "$src"
  cp -r "$moddir" "$src"
  chmod -R u+w "$src"             # the module cache is read-only
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  mkdir -p "$(dirname "$FERRETDB_BIN")"
  # CGO_ENABLED=0: the SQLite driver (modernc.org/sqlite) is pure Go, so no C
  # compiler is needed and the binary is static.
  (cd "$src" && run_logged "$buildlog" "ferretdb: go build" \
    go build -trimpath -o "$FERRETDB_BIN.tmp" ./cmd/ferretdb)
  mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  rm -rf "$src"
}

# A real MongoDB wire-protocol round trip: OP_MSG {ping: 1, $db: "admin"} and
# check the reply has ok == 1. Done with plain Node (always on this machine),
# so no mongo shell or driver has to be installed.
MONGO_PING_JS='
const net = require("net");
const [host, port] = [process.argv[1], Number(process.argv[2])];
const i32 = (n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; };
const cstr = (s) => Buffer.from(s + "\0", "utf8");
const body = Buffer.concat([Buffer.from([0x10]), cstr("ping"), i32(1),
  Buffer.from([0x02]), cstr("$db"), i32(6), cstr("admin"), Buffer.from([0])]);
const doc = Buffer.concat([i32(body.length + 4), body]);
const payload = Buffer.concat([i32(0), Buffer.from([0]), doc]);   // flags, kind 0
const msg = Buffer.concat([i32(16 + payload.length), i32(1), i32(0), i32(2013), payload]);
const s = net.connect(port, host, () => s.write(msg));
s.setTimeout(3000, () => { console.error("timeout"); process.exit(2); });
s.on("error", (e) => { console.error(e.message); process.exit(1); });
let buf = Buffer.alloc(0);
s.on("data", (d) => {
  buf = Buffer.concat([buf, d]);
  if (buf.length < 4 || buf.length < buf.readInt32LE(0)) return;
  s.destroy();
  if (buf.readInt32LE(12) !== 2013) process.exit(3);
  const d0 = 21, end = d0 + buf.readInt32LE(d0) - 1;            // header16+flags4+kind1
  let p = d0 + 4, ok = null;
  while (p < end) {
    const t = buf[p++], z = buf.indexOf(0, p), k = buf.toString("utf8", p, z); p = z + 1;
    if (t === 0x01) { if (k === "ok") ok = buf.readDoubleLE(p); p += 8; }
    else if (t === 0x10) { if (k === "ok") ok = buf.readInt32LE(p); p += 4; }
    else if (t === 0x12 || t === 0x09 || t === 0x11) p += 8;
    else if (t === 0x02) p += 4 + buf.readInt32LE(p);
    else if (t === 0x08) p += 1;
    else if (t === 0x03 || t === 0x04) p += buf.readInt32LE(p);
    else break;
  }
  process.exit(ok === 1 ? 0 : 4);
});'

ferretdb_check() {
  port_open "$FERRETDB_PORT" || return 1
  if command -v node >/dev/null; then
    node -e "$MONGO_PING_JS" "$HOST" "$FERRETDB_PORT" 2>/dev/null
  else
    # No Node: fall back to the open port plus FerretDB's own log line.
    grep -q "Listening on" "$FERRETDB_LOG" 2>/dev/null
  fi
}

ferretdb_start() {
  if live_pid "$FERRETDB_PID" "$FERRETDB_MARKER" >/dev/null; then
    wait_ready ferretdb "$FERRETDB_PID" "$FERRETDB_MARKER" "$FERRETDB_LOG" ferretdb_check
    return 0
  fi
  ensure_port_free ferretdb "$FERRETDB_PORT"
  mkdir -p "$FERRETDB_DIR/data" "$FERRETDB_DIR/state"
  [[ -f $FERRETDB_LOG ]] && mv -f "$FERRETDB_LOG" "$FERRETDB_LOG.1"
  # --debug-addr=- : the default debug HTTP port 8088 could clash with others.
  launch "$FERRETDB_PID" "$FERRETDB_LOG" \
    "$FERRETDB_BIN" "$FERRETDB_MARKER" \
    --handler=sqlite --sqlite-url="file:$FERRETDB_DIR/data/" \
    --state-dir="$FERRETDB_DIR/state" --telemetry=disable \
    --debug-addr=- --log-level=info
  wait_ready ferretdb "$FERRETDB_PID" "$FERRETDB_MARKER" "$FERRETDB_LOG" ferretdb_check
}

ferretdb_version() { "$FERRETDB_BIN" --version | sed -n 's/^version: v\{0,1\}//p'; }
ferretdb_addr() { echo "$HOST:$FERRETDB_PORT"; }
ferretdb_stop() { stop_pid ferretdb "$FERRETDB_PID" "$FERRETDB_MARKER" 20; }
ferretdb_up() { live_pid "$FERRETDB_PID" "$FERRETDB_MARKER" >/dev/null && port_open "$FERRETDB_PORT"; }

# =================================================================== Redis ==
# Debian's redis-server package, but run as our own daemon with our own
# config (the package's service is never used; in containers policy-rc.d
# usually keeps it from starting anyway).
REDIS_DIR=$STATE_DIR/redis
REDIS_PID=$REDIS_DIR/redis.pid
REDIS_LOG=$REDIS_DIR/redis.log
REDIS_MARKER=$HOST:$REDIS_PORT    # redis-server shows "redis-server ip:port"

redis_installed() { command -v redis-server >/dev/null && command -v redis-cli >/dev/null; }
redis_install() {
  log "redis: installing Debian package redis-server (first run only)"
  local sudo=
  ((EUID == 0)) || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || die "redis: apt-get update failed"
  $sudo apt-get install -y -qq --no-install-recommends redis-server >/dev/null ||
    die "redis: apt-get install redis-server failed"
}

redis_check() {
  [[ $(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]
}

redis_start() {
  if live_pid "$REDIS_PID" "$REDIS_MARKER" >/dev/null; then
    wait_ready redis "$REDIS_PID" "$REDIS_MARKER" "$REDIS_LOG" redis_check
    return 0
  fi
  ensure_port_free redis "$REDIS_PORT"
  mkdir -p "$REDIS_DIR/data"
  cat >"$REDIS_DIR/redis.conf" <<EOF
# Generated by deploy/backends.sh — throwaway cache for tests, no persistence.
bind $HOST
port $REDIS_PORT
protected-mode yes
daemonize yes
pidfile $REDIS_PID
logfile $REDIS_LOG
dir $REDIS_DIR/data
save ""
appendonly no
EOF
  rm -f "$REDIS_PID"
  # daemonize yes: redis forks itself and writes its own pid file.
  # 9>&- : do not hand our lock fd to the daemon (see launch()).
  redis-server "$REDIS_DIR/redis.conf" </dev/null 9>&- ||
    fail_with_log redis "$REDIS_LOG" "failed to start"
  local i
  for i in $(seq 50); do [[ -s $REDIS_PID ]] && break; sleep 0.1; done
  wait_ready redis "$REDIS_PID" "$REDIS_MARKER" "$REDIS_LOG" redis_check
}

redis_version() {
  redis-cli -h "$HOST" -p "$REDIS_PORT" info server 2>/dev/null |
    sed -n 's/^redis_version:\([^[:space:]]*\).*/\1/p'
}
redis_addr() { echo "$HOST:$REDIS_PORT"; }
redis_stop() { stop_pid redis "$REDIS_PID" "$REDIS_MARKER" 20; }
redis_up() { live_pid "$REDIS_PID" "$REDIS_MARKER" >/dev/null && port_open "$REDIS_PORT"; }

# ================================================================ commands ==
cmd_start() {
  local s t0 was_up
  for s in "$@"; do
    t0=$(now)
    if "${s}_installed"; then
      log "$s: already installed"
    else
      install_once "$s"
      log "$s: installed in $(since "$t0")"
    fi
    t0=$(now)
    was_up=; "${s}_up" && was_up=" (already running)"
    "${s}_start"
    log "$s: ready in $(since "$t0")$was_up"
    echo "$s $("${s}_version") on $("${s}_addr")"
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
  local s rc=0 pidfile
  for s in "$@"; do
    pidfile=$STATE_DIR/$s/$s.pid
    if "${s}_up"; then
      echo "$s up $("${s}_addr") pid $(<"$pidfile")"
    else
      echo "$s down"; rc=3
    fi
  done
  return $rc
}

cmd_env() {
  echo "export RDE_KAFKA_BROKERS=$HOST:$KAFKA_PORT"
  echo "export RDE_MONGO_URL=mongodb://$HOST:$FERRETDB_PORT/"
  echo "export RDE_REDIS_URL=redis://$HOST:$REDIS_PORT"
}

usage() {
  cat >&2 <<'EOF'
usage: deploy/backends.sh start|stop|status|env [kafka|ferretdb|redis ...]
       deploy/backends.sh stop --wipe [names]      also delete data dirs
       deploy/backends.sh kafka-run CLASS [args]   run a Kafka (tool) class
EOF
  exit 2
}

main() {
  (($# >= 1)) || usage
  local cmd=$1 wipe=0 s; shift
  if [[ $cmd == kafka-run ]]; then
    (($# >= 1)) || usage
    install_once kafka
    kafka_run "$@"
    return
  fi
  if [[ $cmd == stop && ${1:-} == --wipe ]]; then wipe=1; shift; fi
  local servers=("$@")
  ((${#servers[@]})) || servers=("${ALL_SERVERS[@]}")
  for s in "${servers[@]}"; do
    case $s in kafka | ferretdb | redis) ;; *) log "unknown server: $s"; usage ;; esac
  done
  case $cmd in
    env) cmd_env; return ;;
    start | stop | status) ;;
    *) usage ;;
  esac
  if [[ $cmd == status ]]; then cmd_status "${servers[@]}"; return; fi
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

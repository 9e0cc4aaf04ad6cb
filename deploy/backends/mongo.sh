# deploy/backends/mongo.sh — a MongoDB-wire server on 127.0.0.1:${RDE_MONGO_PORT:-27019}:
# mongo-java-server (memory backend) started by our launcher in deploy/backends/mongo/.
# Sourced by deploy/backends.sh, whose helpers it uses. Why this server and not
# FerretDB or MongoDB itself: docs/decisions/0002-ports-and-adapters.md.
#
# Install: Maven resolves the server's jars (Maven Central) into the cache and
# javac compiles the launcher against them. The cache dir is named after the
# library version and a hash of our two source files, so editing either
# rebuilds. Data lives in the JVM's heap and is gone when the server stops.
MONGO_PORT=${RDE_MONGO_PORT:-27019}
MONGO_HEAP=${RDE_MONGO_HEAP:--Xmx2g}
MONGO_SRC=$BACKENDS_SRC/mongo
MONGO_LIB_VERSION=$(sed -n 's:.*<mongo-java-server.version>\(.*\)</mongo-java-server.version>.*:\1:p' "$MONGO_SRC/pom.xml")
MONGO_HOME=$CACHE_DIR/mongo-java-server-$MONGO_LIB_VERSION-$(cat "$MONGO_SRC/pom.xml" "$MONGO_SRC/RdeMongoServer.java" | sha256sum | cut -c1-12)
MONGO_DIR=$STATE_DIR/mongo
MONGO_PID=$MONGO_DIR/mongo.pid
MONGO_LOG=$MONGO_DIR/mongo.log
MONGO_MARKER="RdeMongoServer $HOST $MONGO_PORT"

mongo_install() {
  [[ ! -f $MONGO_HOME/.installed ]] || return 0
  command -v javac >/dev/null || die "mongo: javac not found (a Java 17 JDK is expected)"
  log "mongo: fetching mongo-java-server $MONGO_LIB_VERSION with Maven and compiling the launcher (first run only)"
  rm -rf "$MONGO_HOME"
  mkdir -p "$MONGO_HOME"
  cp "$MONGO_SRC/pom.xml" "$MONGO_SRC/RdeMongoServer.java" "$MONGO_HOME/"
  maven_jars mongo "$MONGO_HOME/pom.xml" "$MONGO_HOME/lib"
  run_logged "$MONGO_HOME/javac.log" "mongo: javac of the launcher" \
    javac -encoding UTF-8 --release 17 -cp "$MONGO_HOME/lib/*" -d "$MONGO_HOME/classes" \
    "$MONGO_HOME/RdeMongoServer.java"
  touch "$MONGO_HOME/.installed"
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

mongo_answers() {
  port_open "$MONGO_PORT" && node -e "$MONGO_PING_JS" "$HOST" "$MONGO_PORT" 2>/dev/null
}

mongo_start() {
  if ! live_pid "$MONGO_PID" "$MONGO_MARKER" >/dev/null; then
    ensure_port_free mongo "$MONGO_PORT"
    mkdir -p "$MONGO_DIR"
    rotate_log "$MONGO_LOG"
    # $MONGO_HEAP unquoted on purpose: RDE_MONGO_HEAP may hold several flags.
    # shellcheck disable=SC2086
    launch "$MONGO_PID" "$MONGO_LOG" \
      java -server $MONGO_HEAP -Djava.awt.headless=true \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -Dorg.slf4j.simpleLogger.log.de.bwaldvogel.mongo.MongoServer=info \
      -cp "$MONGO_HOME/classes:$MONGO_HOME/lib/*" $MONGO_MARKER
  fi
  wait_ready mongo "$MONGO_PID" "$MONGO_MARKER" "$MONGO_LOG" mongo_answers
}

mongo_ready() { live_pid "$MONGO_PID" "$MONGO_MARKER" >/dev/null && mongo_answers; }
mongo_version() { echo "mongo-java-server-$MONGO_LIB_VERSION"; }
mongo_stop() { stop_pid mongo "$MONGO_PID" "$MONGO_MARKER" 20; }
mongo_env() { echo "export RDE_MONGO_URL=mongodb://$HOST:$MONGO_PORT/"; }

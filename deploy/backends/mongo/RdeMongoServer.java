import java.util.List;
import java.util.concurrent.CountDownLatch;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Starts mongo-java-server's memory backend on HOST:PORT until SIGTERM.
 *
 * <p>The library's newest built-in version (MONGO_5_0) announces wire version 8, which the Node
 * driver 7 refuses as too old. MongoDB 5.0 itself speaks wire version 13 and every command this
 * project sends is answered the same, so the server announces that.
 */
public final class RdeMongoServer {
    private enum Mongo50 implements MongoVersion {
        INSTANCE;

        @Override
        public List<Integer> getVersionArray() {
            return List.of(5, 0, 0);
        }

        @Override
        public int getWireVersion() {
            return 13;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: RdeMongoServer HOST PORT");
            System.exit(2);
        }
        MongoServer server = new MongoServer(new MemoryBackend().version(Mongo50.INSTANCE));
        server.bind(args[0], Integer.parseInt(args[1]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            stopped.countDown();
        }));
        System.out.println("RdeMongoServer listening on " + args[0] + ":" + args[1]);
        stopped.await();
    }
}

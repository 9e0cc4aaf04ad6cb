import java.util.List;
import java.util.concurrent.CountDownLatch;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.backend.memory.index.MemoryUniqueIndex;
import de.bwaldvogel.mongo.bson.Document;

/**
 * Starts mongo-java-server's memory backend on HOST:PORT until SIGTERM.
 *
 * <p>The library's newest built-in version (MONGO_5_0) announces wire version 8, which the Node
 * driver 7 refuses as too old. MongoDB 5.0 itself speaks wire version 13 and every command this
 * project sends is answered the same, so the server announces that.
 *
 * <p>The library uses a unique index (the {@code _id} index among them) only for a query on exactly
 * that index's fields, so a guarded write ({@code {_id: X, balance: 5}}) scanned the whole
 * collection, under the collection's lock. MongoDB looks the document up by {@code _id} and checks
 * the rest on it; {@link KeyedQueryIndex} does the same here.
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

    /** The memory backend, with unique indexes that also serve queries naming more than their keys. */
    private static final class Backend extends MemoryBackend {
        @Override
        public MemoryDatabase openOrCreateDatabase(String databaseName) {
            return new MemoryDatabase(databaseName, getCursorRegistry()) {
                @Override
                protected Index<Integer> openOrCreateUniqueIndex(
                        String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
                    return new KeyedQueryIndex(indexName, keys, sparse);
                }
            };
        }
    }

    /**
     * A unique index that answers any query naming every one of its keys: it finds the candidates by
     * those keys, and the collection matches the whole query on them (as it does after any index).
     */
    private static final class KeyedQueryIndex extends MemoryUniqueIndex {
        KeyedQueryIndex(String name, List<IndexKey> keys, boolean sparse) {
            super(name, keys, sparse);
        }

        @Override
        public synchronized boolean canHandle(Document query) {
            Document keyed = keyedPart(query);
            return keyed != null && super.canHandle(keyed);
        }

        @Override
        public synchronized Iterable<Integer> getPositions(Document query) {
            return super.getPositions(keyedPart(query));
        }

        /** The query's conditions on this index's keys, or null when it leaves one of them out. */
        private Document keyedPart(Document query) {
            Document keyed = new Document();
            for (IndexKey key : getKeys()) {
                if (!query.containsKey(key.getKey())) {
                    return null;
                }
                keyed.put(key.getKey(), query.get(key.getKey()));
            }
            return keyed;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: RdeMongoServer HOST PORT");
            System.exit(2);
        }
        MongoServer server = new MongoServer(new Backend().version(Mongo50.INSTANCE));
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

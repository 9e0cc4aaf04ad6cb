import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';

/**
 * Removes what a distributed instance left on the machine's shared Kafka and MongoDB-wire server:
 * the topics and databases named with its namespace. Without this, each start's topics stay (the
 * test command starts about 150 instances): the broker's metadata answer grew to 450 KB over 10,000
 * partitions, every new topic waited on a slow leader election and starts late in the run failed.
 * Best effort: a leftover is logged, never a test failure.
 */
export async function removeNamespace(namespace: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (!namespace) return;
  await Promise.all([
    env.RDE_KAFKA_BROKERS && removeTopics(namespace, env.RDE_KAFKA_BROKERS.split(',')),
    env.RDE_MONGO_URL && removeDatabases(namespace, env.RDE_MONGO_URL),
  ]).catch((error: unknown) => console.warn(`could not remove namespace ${namespace}: ${String(error)}`));
}

async function removeTopics(namespace: string, brokers: string[]): Promise<void> {
  const admin = new Kafka({ clientId: 'e2e-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(namespace));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
  } finally {
    await admin.disconnect();
  }
}

async function removeDatabases(namespace: string, url: string): Promise<void> {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const ours = databases.map(({ name }) => name).filter((name) => name.startsWith(namespace));
    for (const name of ours) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

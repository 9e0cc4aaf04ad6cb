import type { Admin, ITopicConfig } from 'kafkajs';

/**
 * How long a start waits for new topics to get leaders before it gives up (and the process exits):
 * a broker starved of CPU was seen answering CreateTopics with REQUEST_TIMED_OUT for over 30 s.
 */
const LEADERS_DEADLINE_MS = 90_000;
const RETRY_DELAY_MS = 100;

/**
 * Creates `topics` (one that exists already is fine) and resolves once every partition has a leader.
 * kafkajs' own `waitForLeaders` retries only LEADER_NOT_AVAILABLE; when two replicas create the same
 * topic at once, the broker may answer UNKNOWN_TOPIC_OR_PARTITION for a moment and kafkajs fails the
 * start. Here every retriable answer is retried until the deadline.
 */
export async function createTopicsWithLeaders(
  admin: Admin,
  topics: ITopicConfig[],
  deadlineMs = LEADERS_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      await admin.createTopics({ topics, waitForLeaders: false });
      if (await everyPartitionLed(admin, topics)) return;
    } catch (error) {
      if (!isRetriable(error) || Date.now() >= deadline) throw error;
    }
    if (Date.now() >= deadline) throw new Error(`Kafka topics got no leaders in ${deadlineMs} ms: ${names(topics)}`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
  }
}

async function everyPartitionLed(admin: Admin, topics: ITopicConfig[]): Promise<boolean> {
  const metadata = await admin.fetchTopicMetadata({ topics: topics.map(({ topic }) => topic) });
  return metadata.topics.every(
    ({ partitions }) => partitions.length > 0 && partitions.every(({ leader }) => leader >= 0),
  );
}

/**
 * Whether the broker may answer otherwise on a retry. kafkajs gives up on a retriable answer
 * (LEADER_NOT_AVAILABLE during an election) after its own few retries by throwing a non-retriable
 * error with that answer as its `cause`: the cause decides.
 */
export function isRetriable(error: unknown): boolean {
  type KafkaError = { retriable?: unknown; cause?: unknown } | null | undefined;
  for (let current = error as KafkaError; current; current = current.cause as KafkaError) {
    if (current.retriable === true) return true;
  }
  return false;
}

function names(topics: ITopicConfig[]): string {
  return topics.map(({ topic }) => topic).join(', ');
}

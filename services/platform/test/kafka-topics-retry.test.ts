import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, type Admin } from 'kafkajs';
import { createTopicsWithLeaders, isRetriable } from '../src/adapters/kafka/topics';

const leaderElection = () =>
  new KafkaJSProtocolError({
    message: 'There is no leader for this topic-partition as we are in the middle of a leadership election',
    type: 'LEADER_NOT_AVAILABLE',
    code: 5,
    retriable: true,
  } as never);

describe('Kafka topic creation: what is retried', () => {
  it('a retriable answer kafkajs gave up on (its cause) is retried; a refusal is not', () => {
    expect(isRetriable(leaderElection())).toBe(true);
    expect(isRetriable(new KafkaJSNumberOfRetriesExceeded(leaderElection(), { retryCount: 5, retryTime: 100 }))).toBe(
      true,
    );
    expect(isRetriable(new KafkaJSNonRetriableError('invalid replication factor'))).toBe(false);
    expect(isRetriable(new Error('bad config'))).toBe(false);
  });

  it('a start whose topic creation meets a leader election goes on until the topics have leaders', async () => {
    let attempts = 0;
    const admin = {
      createTopics: async () => {
        attempts += 1;
        if (attempts < 3) throw new KafkaJSNumberOfRetriesExceeded(leaderElection(), { retryCount: 5, retryTime: 100 });
        return true;
      },
      fetchTopicMetadata: async () => ({ topics: [{ name: 't', partitions: [{ partitionId: 0, leader: 1 }] }] }),
    } as unknown as Admin;
    await createTopicsWithLeaders(admin, [{ topic: 't' }], 10_000);
    expect(attempts).toBe(3);
  });

  it('a refusal fails the start at once, naming the broker’s reason', async () => {
    const admin = {
      createTopics: async () => {
        throw new KafkaJSNonRetriableError('Replication factor: 3 larger than available brokers: 1');
      },
    } as unknown as Admin;
    await expect(createTopicsWithLeaders(admin, [{ topic: 't' }], 10_000)).rejects.toThrow(/Replication factor/);
  });
});

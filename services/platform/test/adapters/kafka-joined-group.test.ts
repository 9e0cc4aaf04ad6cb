import { EventEmitter } from 'node:events';
import type { Consumer } from 'kafkajs';
import { joinedGroup } from '../../src/adapters/kafka/subscription';

/**
 * A consumer's start waits for the group join (unit test: kafkajs' consumer events, emitted by
 * hand; what a real broker does is the bus contract suite's). A crash kafkajs restarts from must
 * not fail the start, or the process dies of a broker that was only busy loading the group.
 */
const EVENTS = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' };

function consumerEvents() {
  const emitter = new EventEmitter();
  const consumer = {
    events: EVENTS,
    on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
  } as unknown as Pick<Consumer, 'on' | 'events'>;
  const crash = (restart: boolean) =>
    emitter.emit(EVENTS.CRASH, { payload: { error: new Error('coordinator loading'), restart } });
  return { consumer, crash, join: () => emitter.emit(EVENTS.GROUP_JOIN, { payload: {} }) };
}

/** Whether the promise settled by now (after pending callbacks ran), and how. */
async function outcome(promise: Promise<void>): Promise<string> {
  const settled = promise.then(
    () => 'joined',
    (error: Error) => `failed: ${error.message}`,
  );
  return Promise.race([settled, new Promise<string>((resolve) => setImmediate(() => resolve('waiting')))]);
}

test('a retriable crash before the join is logged, and the start waits for the restarted consumer to join', async () => {
  const { consumer, crash, join } = consumerEvents();
  const crashes: boolean[] = [];
  const joined = joinedGroup(consumer, (_error, restart) => crashes.push(restart));
  crash(true);
  expect(await outcome(joined)).toBe('waiting');
  join();
  expect(await outcome(joined)).toBe('joined');
  expect(crashes).toEqual([true]);
});

test('a crash kafkajs does not restart from fails the start with its error', async () => {
  const { consumer, crash } = consumerEvents();
  const crashes: boolean[] = [];
  const joined = joinedGroup(consumer, (_error, restart) => crashes.push(restart));
  crash(false);
  expect(await outcome(joined)).toBe('failed: coordinator loading');
  expect(crashes).toEqual([false]);
});

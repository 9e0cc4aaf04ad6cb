// The patched kafkajs request queue (patches/kafkajs@2.2.4.patch, decision 0090). kafkajs ships no
// types for its internals, hence the require.
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;

interface Queue {
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
  push(request: { entry: object; expectResponse: boolean; sendRequest(): void }): void;
  destroy(): void;
}

const quietLogger = { debug: () => undefined, warn: () => undefined, error: () => undefined };
const queueOf = () =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    clientId: 'test',
    broker: 'b',
    logger: quietLogger,
  });

describe('kafkajs request queue, patched', () => {
  it('arms no timer when nothing waits (2.2.4 re-armed one every millisecond on every idle connection)', () => {
    const queue = queueOf();
    queue.checkPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('still sends a request held back by broker throttling once the throttle ends', async () => {
    const queue = queueOf();
    queue.throttledUntil = Date.now() + 50;
    let sent = false;
    queue.push({
      entry: { correlationId: 1, apiName: 'Produce', resolve: () => undefined },
      expectResponse: false,
      sendRequest: () => (sent = true),
    });
    expect(sent).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(sent).toBe(true);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });
});

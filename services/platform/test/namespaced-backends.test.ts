import { createBackends, EnvAddressBook, ManualClock, namespacedBackends, type DeliveredMessage } from '../src';

describe('namespacedBackends', () => {
  test('two namespaces on one set of servers see neither each other’s documents, keys nor messages', async () => {
    const shared = createBackends({ kind: 'memory', clock: new ManualClock() });
    const blue = namespacedBackends(shared, 'blue_');
    const green = namespacedBackends(shared, 'green_');

    await (await blue.documentStore('rde_billing')).collection('accounts').insertOne({ _id: 'ws_1', balance: 5 });
    expect(await (await green.documentStore('rde_billing')).collection('accounts').findOne({ _id: 'ws_1' })).toBeNull();
    expect(
      await (await shared.documentStore('blue_rde_billing')).collection('accounts').findOne({ _id: 'ws_1' }),
    ).toEqual({
      _id: 'ws_1',
      balance: 5,
    });

    await (await blue.keyValue('auth')).set('k', 'blue');
    expect(await (await green.keyValue('auth')).get('k')).toBeNull();

    const greenSeen: DeliveredMessage[] = [];
    const blueSeen: DeliveredMessage[] = [];
    const greenBus = await green.bus('billing');
    const blueBus = await blue.bus('billing');
    const subscriptions = [
      await greenBus.subscribe({ group: 'billing', topic: 'billing.settlements' }, async (m) => void greenSeen.push(m)),
      await blueBus.subscribe({ group: 'billing', topic: 'billing.settlements' }, async (m) => void blueSeen.push(m)),
    ];
    await blueBus.publish('billing.settlements', [{ key: 'ws_1', value: Buffer.from('paid') }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(blueSeen.map((m) => [m.topic, m.value.toString()])).toEqual([['billing.settlements', 'paid']]);
    expect(greenSeen).toEqual([]);
    await Promise.all(subscriptions.map((s) => s.stop()));
    await shared.close();
  });

  test('an empty prefix is the backends themselves', () => {
    const shared = createBackends({ kind: 'memory', clock: new ManualClock() });
    expect(namespacedBackends(shared, '')).toBe(shared);
  });
});

describe('EnvAddressBook', () => {
  test('prefers a module registered in this process, then RDE_<NAME>_ADDR, and names the missing variable', () => {
    const book = new EnvAddressBook({ RDE_AUTH_ADDR: '10.0.0.1:7101' });
    expect(book.get('auth')).toBe('10.0.0.1:7101');
    book.register('auth', '127.0.0.1:40000');
    expect(book.get('auth')).toBe('127.0.0.1:40000');
    expect(() => book.get('billing')).toThrow('RDE_BILLING_ADDR is not set: no address for the billing service');
  });
});

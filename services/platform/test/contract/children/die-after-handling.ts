/**
 * A consumer that handles one message, applies its effect, tells the parent, and then hangs inside
 * its handler so the offset is never committed; the parent SIGKILLs it there.
 * Usage: die-after-handling.ts <brokers> <topic> <group> <effects-dir>
 */
import { KafkaBus } from '../../../src/adapters/kafka/bus';
import { EffectLog } from '../support/effects';
import { testLogger } from '../support/real-backends';
import { HANDLED } from './signals';

async function main(): Promise<void> {
  const [brokers = '', topic = '', group = '', effectsDir = ''] = process.argv.slice(2);
  const effects = EffectLog.at(effectsDir);
  const bus = new KafkaBus({
    brokers: brokers.split(','),
    clientId: 'dying-consumer',
    logger: testLogger,
    sessionTimeoutMs: 6_000,
  });
  await bus.subscribe({ topic, group }, async (message) => {
    await effects.deliver(message.value.toString());
    process.stdout.write(`${HANDLED}\n`);
    await new Promise(() => undefined); // killed here, before the commit
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { appendFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A side effect shared by a test and its child processes: every delivery is logged, and the effect
 * itself is applied at most once per id by an exclusive file create (what an idempotent handler's
 * guarded insert does in a service).
 */
export class EffectLog {
  private constructor(readonly dir: string) {}

  static async create(): Promise<EffectLog> {
    return new EffectLog(await mkdtemp(join(tmpdir(), 'rde-effects-')));
  }

  static at(dir: string): EffectLog {
    return new EffectLog(dir);
  }

  /** Records the delivery and applies the effect unless it already was. */
  async deliver(id: string): Promise<void> {
    await appendFile(join(this.dir, 'deliveries'), `${id}\n`);
    try {
      await writeFile(join(this.dir, `effect-${id}`), '', { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }

  async deliveries(): Promise<string[]> {
    const text = await readFile(join(this.dir, 'deliveries'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean);
  }

  async effects(): Promise<string[]> {
    return (await readdir(this.dir)).filter((name) => name.startsWith('effect-')).map((name) => name.slice(7));
  }
}

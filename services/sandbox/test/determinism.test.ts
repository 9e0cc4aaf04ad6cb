import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sampleOf } from './fixtures/universe-sample';

const repositoryRoot = path.resolve(__dirname, '../../..');

async function sampleInChildProcess(seed: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'fixtures/print-universe.ts'), seed],
    {
      cwd: repositoryRoot,
      maxBuffer: 10_000_000,
    },
  );
  return JSON.parse(stdout);
}

describe('determinism', () => {
  it('generates the same people, companies and search results in another process from the same seed', async () => {
    const [fromChild, fromHere] = [await sampleInChildProcess('determinism'), sampleOf('determinism')];
    expect(fromChild).toEqual(JSON.parse(JSON.stringify(fromHere)));
  }, 60_000);

  it('generates a different universe from another seed', async () => {
    const other = (await sampleInChildProcess('another')) as ReturnType<typeof sampleOf>;
    const here = sampleOf('determinism');
    expect(other.people.map((p) => p.fullName)).not.toEqual(here.people.map((p) => p.fullName));
  }, 60_000);
});

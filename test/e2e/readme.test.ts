import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mode, startRde, type RunningRde } from './harness';

jest.setTimeout(120_000);

/** The README's first session, run as written, so its commands cannot drift from what RDE answers. */
const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
/** Where the README's commands reach the all-in-one it starts. */
const README_ADDRESS = 'localhost:8080';

/** The `curl` commands of the "A first session" section, continuation lines joined. */
function firstSessionCurls(): string[] {
  const section = README.split(/^## /m).find((part) => part.startsWith('A first session'))!;
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, block]) => block);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, '').split('\n'))
    .filter((line) => line.startsWith('curl '));
}

/** Runs one command in bash, as a reader pastes it, with RDE_KEY exported. */
function run(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('bash', ['-c', command], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe(`the README's first session (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde();
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('the README starts the all-in-one with RDE_DEV_API_KEY set to the RDE_KEY its curls send', () => {
    expect(README).toMatch(/^export RDE_KEY=rde_live_\S{24,}$/m);
    expect(README).toMatch(/^RDE_DEV_API_KEY=\$RDE_KEY \.\/rde start/m);
  });

  test('its five curls answer JSON, the dry run spending nothing and the search and enrichment finding someone', async () => {
    const curls = firstSessionCurls();
    expect(curls).toHaveLength(5);
    const answers = [];
    for (const curl of curls) {
      expect(curl).toContain(README_ADDRESS);
      const command = curl.replaceAll(README_ADDRESS, new URL(rde.baseUrl).host);
      const { code, stdout, stderr } = await run(command, { RDE_KEY: rde.ownerKey });
      expect({ curl, code, stderr }).toEqual({ curl, code: 0, stderr: '' });
      answers.push(JSON.parse(stdout));
    }
    const [me, tools, dryRun, search, enrichment] = answers;
    expect(me.role).toBe('owner');
    expect(tools.tools).toContain('mailfinder');
    expect(dryRun).toMatchObject({ dry_run: true, _meta: { would_call: 'mailfinder.find' } });
    expect(dryRun._meta.would_charge_credits).toBeGreaterThan(0);
    expect(search.results.length).toBeGreaterThan(0);
    expect(enrichment.results[0].email).toEqual(expect.stringContaining('@'));
  });
});

describe("the README's links", () => {
  test('every link into the repository names a file or folder that exists', () => {
    const root = path.resolve(__dirname, '../..');
    const targets = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map(([, target]) => target)
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !existsSync(path.join(root, target)))).toEqual([]);
  });
});

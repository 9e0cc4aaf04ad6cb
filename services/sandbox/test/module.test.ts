import { createServer } from 'node:net';
import { loadSandboxConfig } from '../src/config';
import { startSandbox, type Sandbox } from './harness';

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a sandbox on a given port. A port found free can be taken by another process before the
 * sandbox binds it; that start fails with EADDRINUSE and is tried again on another port.
 */
async function startOnGivenPort(env: Record<string, string>): Promise<{ sandbox: Sandbox; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await unusedPort();
    try {
      return { sandbox: await startSandbox({ ...env, RDE_SANDBOX_PORT: String(port) }), port };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

// Many HTTP round trips per test; CI machines may be busy.
jest.setTimeout(30_000);

describe('the sandbox module', () => {
  it('binds an ephemeral loopback port in all-in-one mode, answers, and stops', async () => {
    const sandbox = await startSandbox();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${sandbox.url}/healthz`)).json()).toEqual({ status: 'ok' });
    await sandbox.stop();
    await expect(fetch(`${sandbox.url}/healthz`)).rejects.toThrow();
  });

  it('listens on RDE_SANDBOX_PORT, and serves the universe of RDE_SANDBOX_SEED', async () => {
    const { sandbox: first, port } = await startOnGivenPort({ RDE_SANDBOX_SEED: 'one' });
    const second = await startSandbox({ RDE_SANDBOX_SEED: 'two' });
    try {
      expect(first.url).toBe(`http://127.0.0.1:${port}`);
      const [a, b] = await Promise.all([first.admin('GET', '/people/7'), second.admin('GET', '/people/7')]);
      expect(a.body.fullName).not.toBe(b.body.fullName);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('defaults to port 8090 on all interfaces when run alone', () => {
    expect(loadSandboxConfig({}, false)).toMatchObject({
      RDE_SANDBOX_PORT: 8090,
      RDE_SANDBOX_HOST: '0.0.0.0',
      RDE_SANDBOX_PEOPLE: 1_000_000,
    });
    expect(loadSandboxConfig({}, true)).toMatchObject({ RDE_SANDBOX_PORT: 0, RDE_SANDBOX_HOST: '127.0.0.1' });
  });

  it('refuses to start on invalid variables, naming each one', () => {
    const load = () => loadSandboxConfig({ RDE_SANDBOX_LATENCY_SCALE: 'fast', RDE_SANDBOX_PEOPLE: '12' }, true);
    expect(load).toThrow(/RDE_SANDBOX_LATENCY_SCALE="fast" is invalid/);
    expect(load).toThrow(/RDE_SANDBOX_PEOPLE="12" is invalid/);
  });
});

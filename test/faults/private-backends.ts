import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TcpProxy } from '../../services/platform/test/contract/support/tcp-proxy';
import { freePort } from '../e2e/harness';

const BACKENDS = resolve(__dirname, '../../deploy/backends.sh');

export type PrivateBackend = 'kafka' | 'mongo' | 'redis';

/**
 * Kafka, the MongoDB-wire server and Redis of one test file's own, in their own state directory on
 * their own ports (deploy/backends.sh reads both from the environment), so the file can stop and
 * restart them while the machine's shared servers go on serving everyone else.
 *
 * The MongoDB-wire server keeps its data in memory, so a restart of its process would also wipe
 * every database, which a MongoDB restart does not. Clients reach it through a TCP proxy here:
 * "stopping" it closes the proxy and every connection through it, and "starting" it listens again,
 * which is what RDE sees of a MongoDB restart, with the data kept.
 */
export class PrivateBackends {
  private mongoProxy?: TcpProxy;

  private constructor(
    private readonly dir: string,
    private readonly ports: Record<string, number>,
  ) {}

  static async start(): Promise<PrivateBackends> {
    const dir = await mkdtemp(join(tmpdir(), 'rde-private-backends-'));
    const ports = {
      kafka: await freePort(),
      kafkaController: await freePort(),
      mongo: await freePort(),
      mongoProxy: await freePort(),
      redis: await freePort(),
    };
    const backends = new PrivateBackends(dir, ports);
    await backends.script('start', 'kafka', 'mongo', 'redis');
    backends.mongoProxy = new TcpProxy(ports.mongoProxy, ports.mongo);
    await backends.mongoProxy.listen();
    return backends;
  }

  /** What RDE's processes need to use these servers instead of the shared ones. */
  get env(): NodeJS.ProcessEnv {
    return {
      RDE_KAFKA_BROKERS: `127.0.0.1:${this.ports.kafka}`,
      RDE_MONGO_URL: `mongodb://127.0.0.1:${this.ports.mongoProxy}/`,
      RDE_REDIS_URL: `redis://127.0.0.1:${this.ports.redis}`,
    };
  }

  async stop(backend: PrivateBackend): Promise<void> {
    if (backend === 'mongo') await this.mongoProxy!.close();
    else await this.script('stop', backend);
  }

  async restart(backend: PrivateBackend): Promise<void> {
    if (backend === 'mongo') await this.mongoProxy!.listen();
    else await this.script('start', backend);
  }

  /** Stops every server of this file and removes its state. */
  async remove(): Promise<void> {
    await this.mongoProxy?.close();
    await this.script('stop', '--wipe', 'kafka', 'mongo', 'redis');
    await rm(this.dir, { recursive: true, force: true });
  }

  private script(...args: string[]): Promise<string> {
    const env = {
      ...process.env,
      RDE_BACKENDS_DIR: this.dir,
      RDE_KAFKA_PORT: String(this.ports.kafka),
      RDE_KAFKA_CONTROLLER_PORT: String(this.ports.kafkaController),
      RDE_MONGO_PORT: String(this.ports.mongo),
      RDE_REDIS_PORT: String(this.ports.redis),
      // A smaller heap than the shared server's: this machine runs those and other test runs too.
      RDE_MONGO_HEAP: '-Xmx768m',
    };
    return new Promise((done, fail) =>
      execFile(BACKENDS, args, { env, timeout: 300_000 }, (error, stdout, stderr) =>
        error ? fail(new Error(`backends.sh ${args.join(' ')}: ${error.message}\n${stderr}`)) : done(stdout),
      ),
    );
  }
}

import {
  createBackends,
  createClient,
  EnvAddressBook,
  ManualClock,
  RdeError,
  type Backends,
  type Caller,
  type Logger,
  type RunningModule,
  type ServiceClient,
} from '@rde/platform';
import { auth } from '@rde/proto';
import { authModule } from '../src';

export type AuthClient = ServiceClient<typeof auth.AuthServiceService>['rpc'];

/** What the module logged at info level: the dev key is shown there, once. */
export interface LoggedLine {
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** A logger that records info lines and drops everything else. */
function recordingLogger(lines: LoggedLine[]): Logger {
  const logger = {
    child: () => logger,
    info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  };
  return logger as unknown as Logger;
}

export interface AuthUnderTest {
  readonly client: AuthClient;
  /** The first replica's gRPC address, for clients of its other services. */
  readonly address: string;
  readonly clock: ManualClock;
  readonly backends: Backends;
  readonly logged: LoggedLine[];
  /** Another auth replica (or a restart) over the same store. */
  startReplica(options?: StartOptions): Promise<RunningModule>;
  /** The caller a bearer resolves to, as the gateway would pass it on. */
  callerOf(key: string): Promise<Caller>;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly allInOne?: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

/** The real auth module on a loopback port over memory backends, and a gRPC client to it. */
export async function startAuth(options: StartOptions = {}): Promise<AuthUnderTest> {
  const clock = new ManualClock();
  const backends = createBackends({ kind: 'memory', clock });
  const logged: LoggedLine[] = [];
  const running: RunningModule[] = [];
  const startReplica = async (replica: StartOptions = options) => {
    const module = await authModule.start({
      env: { RDE_AUTH_PORT: '0', RDE_DRAIN_MS: '0', ...replica.env },
      logger: recordingLogger(logged),
      backends,
      addresses: new EnvAddressBook({}),
      allInOne: replica.allInOne ?? false,
    });
    running.push(module);
    return module;
  };
  const first = await startReplica();
  const connection = createClient(auth.AuthServiceService, {
    address: first.address,
    deadlineMs: 5_000,
  });
  const client = connection.rpc;
  return {
    client,
    address: first.address,
    clock,
    backends,
    logged,
    startReplica,
    callerOf: async (key) => (await client.resolveBearer({ token: key, workspaceId: '' })).caller!,
    stop: async () => {
      connection.close();
      for (const module of running) await module.stop();
      await backends.close();
    },
  };
}

/** The public error a failed call carries: HTTP status and body, as the gateway would send them. */
export async function failure(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RdeError) return { status: error.httpStatus, body: error.body };
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A workspace with its owner's key, made through the admin RPC. */
export async function workspaceOf(client: AuthClient, ownerEmail: string) {
  const created = await client.createWorkspace({ ownerEmail, name: '', keyPlaintext: '' });
  return { workspaceId: created.workspace!.id, ownerId: created.owner!.id, ownerKey: created.keyPlaintext };
}

/** A member added through the admin RPC, with their first key. */
export async function memberOf(client: AuthClient, workspaceId: string, email: string, role = 'member') {
  const added = await client.addMember({ workspaceId, email, role });
  return { userId: added.user!.id, key: added.keyPlaintext, keyId: added.key!.id };
}

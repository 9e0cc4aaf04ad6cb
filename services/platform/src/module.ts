import type { Logger } from './logger';
import type { Backends } from './backends';
import type { ConfigShape } from './config';
import type { ServiceName } from './service-names';

/**
 * A service is a module: a name, the modules it needs started first, and start/stop.
 * `rde start --target=…` resolves targets against one registry of these (Loki's modules.go).
 */
export interface ServiceModule {
  readonly name: ServiceName;
  readonly dependencies: readonly ServiceName[];
  /**
   * Every variable the module reads: `rde start` checks those of all its modules before starting any,
   * and names the closest known one for an `RDE_*` variable no module declares (decision 0058).
   */
  readonly config: ConfigShape;
  start(ctx: ModuleContext): Promise<RunningModule>;
  /** Creates what the module needs in its backends (indexes) before a deployment; idempotent. */
  migrate?(ctx: ModuleContext): Promise<void>;
}

export interface RunningModule {
  /** Where other modules reach this one: `host:port` for gRPC, a URL for HTTP-only modules. */
  readonly address: string;
  /** Stops accepting work, drains, then releases resources. */
  stop(): Promise<void>;
}

export interface ModuleContext {
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly backends: Backends;
  readonly addresses: AddressBook;
  /** true in all-in-one mode: servers bind loopback ephemeral ports unless a port is configured. */
  readonly allInOne: boolean;
}

/** Resolves another module's address: the in-process registry in all-in-one mode, `RDE_<NAME>_ADDR` otherwise. */
export interface AddressBook {
  get(moduleName: ServiceName): string;
}

export class EnvAddressBook implements AddressBook {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly local: Map<ServiceName, string> = new Map(),
  ) {}

  get(moduleName: ServiceName): string {
    const local = this.local.get(moduleName);
    if (local) return local;
    const variable = `RDE_${moduleName.toUpperCase()}_ADDR`;
    const fromEnv = this.env[variable];
    if (!fromEnv) throw new Error(`${variable} is not set: no address for the ${moduleName} service`);
    return fromEnv;
  }

  register(moduleName: ServiceName, address: string): void {
    this.local.set(moduleName, address);
  }
}

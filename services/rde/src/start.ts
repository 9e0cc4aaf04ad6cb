import { EnvAddressBook, type Backends, type Logger, type RunningModule, type ServiceModule } from '@rde/platform';

export interface StartedProcess {
  readonly modules: ReadonlyMap<string, RunningModule>;
  /** Stops in reverse start order, so the gateway drains before the services behind it go. */
  stop(): Promise<void>;
}

export async function startModules(
  modules: readonly ServiceModule[],
  options: { env: NodeJS.ProcessEnv; logger: Logger; backends: Backends; allInOne: boolean },
): Promise<StartedProcess> {
  const addresses = new EnvAddressBook(options.env);
  const running = new Map<string, RunningModule>();
  const stop = async () => {
    for (const [name, module] of [...running].reverse()) {
      await module.stop().catch((err: unknown) => options.logger.error({ err, module: name }, 'stop failed'));
    }
  };
  try {
    for (const module of modules) {
      const started = await module.start({ ...options, addresses });
      addresses.register(module.name, started.address);
      running.set(module.name, started);
      options.logger.info({ module: module.name, address: started.address }, 'module started');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { modules: running, stop };
}

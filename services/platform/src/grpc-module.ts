import { z } from 'zod';
import { env, listenOn, loadConfig, type ConfigShape } from './config';
import type { ModuleContext, RunningModule, ServiceModule } from './module';
import type { Bus } from './ports/bus';
import type { DocumentStore } from './ports/document-store';
import type { KeyValue } from './ports/key-value';
import type { ServiceName } from './service-names';
import { GrpcServer, type HostedService } from './grpc/server';
import { telemetryEnabled } from './telemetry';

/** What a gRPC service builds once its backends are connected. */
export interface ServiceRuntime {
  readonly services: HostedService[];
  /** Answers whether its dependencies (store, bus, key-value) are reachable now. */
  healthy(): Promise<boolean>;
  /** Background work (relays, consumers, reapers) started after the server is up. */
  startBackground?(): Promise<void>;
  close(): Promise<void>;
}

/** The module's own backends, named after it: database `rde_<name>`, bus client and key-value namespace `<name>`. */
export interface OwnBackends {
  documentStore(): Promise<DocumentStore>;
  bus(): Promise<Bus>;
  keyValue(): Promise<KeyValue>;
}

/** What a gRPC service's `build` gets: the module context and its own backends. */
export interface ServiceContext extends ModuleContext {
  readonly own: OwnBackends;
}

export interface GrpcModuleSpec {
  readonly name: ServiceName;
  /** Where a separate process listens unless `RDE_<NAME>_PORT` says otherwise; all-in-one binds any free port. */
  readonly defaultPort: number;
  readonly dependencies: readonly ServiceName[];
  /** The service's own variables (its config.ts); the server's are added here. */
  readonly config: ConfigShape;
  build(ctx: ServiceContext): Promise<ServiceRuntime>;
}

const HEALTH_RECHECK_MS = 2_000;
/** Failed health checks in a row before a running service reports NOT_SERVING. */
const UNHEALTHY_AFTER = 2;

/** What every gRPC module's server reads, beside its `RDE_<NAME>_PORT`. */
const SERVER_VARIABLES = {
  RDE_GRPC_HOST: z.string().default('127.0.0.1'),
  RDE_DRAIN_MS: env.milliseconds(1_000),
};

function serviceContext(name: ServiceName, ctx: ModuleContext): ServiceContext {
  return {
    ...ctx,
    logger: ctx.logger.child({ module: name }),
    own: {
      documentStore: () => ctx.backends.documentStore(`rde_${name}`),
      bus: () => ctx.backends.bus(name),
      keyValue: () => ctx.backends.keyValue(name),
    },
  };
}

/**
 * Turns a service's runtime into a module: its gRPC server on `RDE_<NAME>_PORT`, NOT_SERVING until
 * its dependencies answer, re-checked in the background, NOT_SERVING again while draining.
 */
export function grpcModule(spec: GrpcModuleSpec): ServiceModule {
  const portVariable = `RDE_${spec.name.toUpperCase()}_PORT`;
  // Unset, the port depends on the mode (below), so the declared shape has no default.
  const portShape = { [portVariable]: env.optionalPort() };
  return {
    name: spec.name,
    dependencies: spec.dependencies,
    config: { ...spec.config, ...SERVER_VARIABLES, ...portShape },
    async start(ctx: ModuleContext): Promise<RunningModule> {
      const config = loadConfig(SERVER_VARIABLES, ctx.env);
      // All-in-one modules talk in process: no fixed port, so a second instance starts beside the first.
      const configuredPort = loadConfig(portShape, ctx.env)[portVariable] as number | undefined;
      const port = configuredPort ?? (ctx.allInOne ? 0 : spec.defaultPort);
      const service = serviceContext(spec.name, ctx);
      const runtime = await spec.build(service);
      const server = new GrpcServer({
        name: spec.name,
        host: config.RDE_GRPC_HOST,
        port,
        logger: service.logger,
        services: runtime.services,
        // In one process the gateway has drained already; only a separate process needs its own window.
        drainMs: ctx.allInOne ? 0 : config.RDE_DRAIN_MS,
        // All-in-one skips HTTP/2 between its own modules, unless telemetry is on: then every hop stays
        // on loopback gRPC, as in distributed mode (decision 0014); both paths get our gRPC spans.
        inProcess: ctx.allInOne && !telemetryEnabled(ctx.env),
      });
      const address = await listenOn(portVariable, port, () => server.listen());
      await runtime.startBackground?.();
      let draining = false;
      let failedInARow = 0;
      const recheck = async () => {
        if (draining) return;
        const healthy = await runtime.healthy().catch(() => false);
        failedInARow = healthy ? 0 : failedInARow + 1;
        // One failed ping (a backend slow for a moment) is not an outage: serving stops at the second in a row.
        if (healthy || failedInARow >= UNHEALTHY_AFTER) server.setServing(healthy);
      };
      server.setServing(await runtime.healthy().catch(() => false));
      const timer = setInterval(() => void recheck(), HEALTH_RECHECK_MS);
      timer.unref();
      return {
        address,
        async stop() {
          draining = true;
          clearInterval(timer);
          await server.stop();
          await runtime.close();
        },
      };
    },
    async migrate(ctx: ModuleContext): Promise<void> {
      // Building a service creates its indexes; nothing is served and no background work starts.
      const runtime = await spec.build(serviceContext(spec.name, ctx));
      await runtime.close();
    },
  };
}

import {
  Metadata,
  status as GrpcStatus,
  type MethodDefinition,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { fromServiceError } from './status-codec';

/** A service served by a GrpcServer of this process, with the same wrapped handlers the network path runs. */
interface LocalService {
  readonly definition: ServiceDefinition;
  readonly implementation: UntypedServiceImplementation;
}

/** This process's servers that accept in-process calls: address → service name → service. */
const localServers = new Map<string, Map<string, LocalService>>();

export function registerLocalService(address: string, serviceName: string, service: LocalService): void {
  const services = localServers.get(address) ?? new Map<string, LocalService>();
  services.set(serviceName, service);
  localServers.set(address, services);
}

export function unregisterLocalServices(address: string): void {
  localServers.delete(address);
}

/** The in-process server of `serviceName` at `address`, when this process runs it. */
export function localService(address: string, serviceName: string): LocalService | undefined {
  return localServers.get(address)?.get(serviceName);
}

/**
 * A unary call without HTTP/2 framing (decision 0014). Everything else is what the network path
 * does: the request and the response are encoded and decoded with the contract's own serialisers,
 * the metadata (caller) is carried as the server would receive it, the server's wrapped handler runs
 * (logging, error table), errors come back through the same status codec, and the deadline holds.
 */
export function callLocal(
  service: LocalService,
  method: string,
  request: unknown,
  metadata: Metadata,
  deadlineMs: number,
): Promise<unknown> {
  const definition = service.definition[method] as MethodDefinition<unknown, unknown>;
  const handler = service.implementation[method] as (
    call: ServerUnaryCall<unknown, unknown>,
    callback: (error: Partial<ServiceError> | null, response?: unknown) => void,
  ) => void;
  return new Promise((resolve, reject) => {
    let finished = false;
    const finish = (outcome: () => void) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(fromServiceError(statusError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded')))),
      deadlineMs,
    );
    try {
      const call = {
        request: definition.requestDeserialize(definition.requestSerialize(request)),
        metadata: metadata.clone(),
        cancelled: false,
        getPeer: () => 'in-process',
        getDeadline: () => Date.now() + deadlineMs,
      } as unknown as ServerUnaryCall<unknown, unknown>;
      handler(call, (error, response) =>
        finish(() =>
          error
            ? reject(fromServiceError(error as ServiceError))
            : resolve(definition.responseDeserialize(definition.responseSerialize(response))),
        ),
      );
    } catch (error) {
      // A request the contract cannot encode fails as grpc-js fails it: INTERNAL, before any handler runs.
      const details = `Request message serialization failure: ${(error as Error).message}`;
      finish(() => reject(fromServiceError(statusError(GrpcStatus.INTERNAL, details))));
    }
  });
}

function statusError(code: GrpcStatus, details: string): ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new Metadata() });
}

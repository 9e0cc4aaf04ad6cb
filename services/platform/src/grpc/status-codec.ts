import { STATUS_CODES } from 'node:http';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { common } from '@rde/proto';
import { backendUnavailable, isBackendOutage } from '../backend-outage';
import { RdeError, httpStatusForGrpc } from '../errors';
import { ERROR_KEY } from './metadata';

/** An error thrown by a handler, as it crosses the wire: status, message and the structured detail. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  const rde =
    error instanceof RdeError
      ? error
      : isBackendOutage(error)
        ? backendUnavailable()
        : new RdeError(GrpcStatus.INTERNAL, 500, { detail: 'Internal Server Error' });
  const metadata = new Metadata();
  const detail = common.ErrorDetail.encode({
    httpStatus: rde.httpStatus,
    bodyJson: Buffer.from(JSON.stringify(rde.body)),
  }).finish();
  metadata.set(ERROR_KEY, Buffer.from(detail));
  return { code: rde.code, details: rde.message, metadata };
}

/** The error a client sees: the service's own RdeError when it sent one, else one from the status table. */
export function fromServiceError(error: ServiceError): RdeError {
  const [raw] = error.metadata?.get(ERROR_KEY) ?? [];
  if (Buffer.isBuffer(raw)) {
    const detail = common.ErrorDetail.decode(raw);
    return new RdeError(error.code, detail.httpStatus, JSON.parse(Buffer.from(detail.bodyJson).toString('utf8')));
  }
  const httpStatus = httpStatusForGrpc(error.code);
  return new RdeError(error.code, httpStatus, { detail: publicText(error.code, httpStatus) });
}

/**
 * A status without a service's body is described generically: its details are gRPC's own text
 * (e.g. "Request message serialization failure: invalid int32"), internal and never for a client.
 */
function publicText(code: GrpcStatus, httpStatus: number): string {
  if (code === GrpcStatus.UNAVAILABLE) return 'A downstream service is unavailable';
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return 'A downstream service did not answer in time';
  return STATUS_CODES[httpStatus] ?? 'Internal Server Error';
}

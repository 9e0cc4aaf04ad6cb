import { status as GrpcStatus } from '@grpc/grpc-js';

/** A public error body: what the gateway returns as is. */
export type ErrorBody = Record<string, unknown>;

/**
 * The one error type services throw. It carries the gRPC status, the HTTP status and the public
 * body together so neither side of the wire ever invents a body.
 */
export class RdeError extends Error {
  constructor(
    readonly code: GrpcStatus,
    readonly httpStatus: number,
    readonly body: ErrorBody,
  ) {
    super(describe(body));
    this.name = 'RdeError';
  }
}

function describe(body: ErrorBody): string {
  const text = body.detail ?? body.error ?? body.message;
  return typeof text === 'string' ? text : JSON.stringify(body);
}

/**
 * gRPC status → HTTP status, for errors that arrive without a structured detail (a deadline,
 * an unreachable service, a crash). Errors with a detail carry their own HTTP status.
 */
const httpByGrpc: ReadonlyMap<GrpcStatus, number> = new Map([
  [GrpcStatus.INVALID_ARGUMENT, 400],
  [GrpcStatus.OUT_OF_RANGE, 400],
  [GrpcStatus.UNAUTHENTICATED, 401],
  [GrpcStatus.PERMISSION_DENIED, 403],
  [GrpcStatus.NOT_FOUND, 404],
  [GrpcStatus.ALREADY_EXISTS, 409],
  [GrpcStatus.ABORTED, 409],
  [GrpcStatus.FAILED_PRECONDITION, 409],
  [GrpcStatus.RESOURCE_EXHAUSTED, 429],
  [GrpcStatus.CANCELLED, 499],
  [GrpcStatus.UNIMPLEMENTED, 501],
  [GrpcStatus.UNAVAILABLE, 503],
  [GrpcStatus.DEADLINE_EXCEEDED, 504],
]);

/** HTTP status → gRPC status, for errors raised with an HTTP status in mind. */
const grpcByHttp: ReadonlyMap<number, GrpcStatus> = new Map([
  [400, GrpcStatus.INVALID_ARGUMENT],
  [401, GrpcStatus.UNAUTHENTICATED],
  [402, GrpcStatus.FAILED_PRECONDITION],
  [403, GrpcStatus.PERMISSION_DENIED],
  [404, GrpcStatus.NOT_FOUND],
  [405, GrpcStatus.UNIMPLEMENTED],
  [409, GrpcStatus.ALREADY_EXISTS],
  [422, GrpcStatus.INVALID_ARGUMENT],
  [429, GrpcStatus.RESOURCE_EXHAUSTED],
  [502, GrpcStatus.UNAVAILABLE],
  [503, GrpcStatus.UNAVAILABLE],
  [504, GrpcStatus.DEADLINE_EXCEEDED],
]);

export function httpStatusForGrpc(code: GrpcStatus): number {
  return httpByGrpc.get(code) ?? 500;
}

export function grpcStatusForHttp(httpStatus: number): GrpcStatus {
  return grpcByHttp.get(httpStatus) ?? GrpcStatus.INTERNAL;
}

/** Raises the error the public contract names by its HTTP status and body. */
export function httpError(httpStatus: number, body: ErrorBody): RdeError {
  return new RdeError(grpcStatusForHttp(httpStatus), httpStatus, body);
}

/** The spec's standard validation-error item (the `detail` list of a 422). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Where a client gets a key: every "not authenticated" answer ends with it. */
const WHERE_KEYS_COME_FROM =
  'Create API keys on the dashboard’s API keys page or with POST /api/v2/keys; each is shown once, when created.';

/**
 * Why a request carries no usable credential, each answered with what to do (decision 0052). An
 * unknown key and a revoked one are both `refused`: nothing tells whether a key ever existed.
 */
const NOT_AUTHENTICATED = {
  missing: 'Not authenticated: no API key was sent. Send one as `Authorization: Bearer <key>`.',
  not_bearer: 'The Authorization header must read `Bearer <key>`: the Bearer scheme, a space, then the key.',
  empty_bearer: 'The Authorization header has no key after `Bearer`: send `Authorization: Bearer <key>`.',
  api_key_header: 'API keys are read from the Authorization header, not X-Api-Key: send `Authorization: Bearer <key>`.',
  refused: 'Invalid API key: it is unknown or has been revoked. Check that it was copied whole, or use another.',
  session_ended: 'Your sign-in session has ended: sign in again, or send an API key as `Authorization: Bearer <key>`.',
} as const;

export type NotAuthenticatedReason = keyof typeof NOT_AUTHENTICATED;

export const errors = {
  badRequest: (body: ErrorBody) => httpError(400, body),
  unauthenticated: (detail = 'Not authenticated') => httpError(401, { detail }),
  notAuthenticated: (reason: NotAuthenticatedReason) =>
    httpError(401, { detail: `${NOT_AUTHENTICATED[reason]} ${WHERE_KEYS_COME_FROM}` }),
  forbidden: (detail: string) => httpError(403, { detail }),
  notFound: (detail = 'Not Found') => httpError(404, { detail }),
  conflict: (body: ErrorBody) => httpError(409, body),
  paymentRequired: (body: ErrorBody) => httpError(402, body),
  validation: (issues: ValidationIssue[]) => httpError(422, { detail: issues }),
  unavailable: (detail: string) => httpError(503, { detail }),
};

import { status as GrpcStatus } from '@grpc/grpc-js';
import { errors, grpcStatusForHttp, httpError, httpStatusForGrpc } from '../src';

describe('the error table', () => {
  test.each([
    [GrpcStatus.INVALID_ARGUMENT, 400],
    [GrpcStatus.UNAUTHENTICATED, 401],
    [GrpcStatus.PERMISSION_DENIED, 403],
    [GrpcStatus.NOT_FOUND, 404],
    [GrpcStatus.ALREADY_EXISTS, 409],
    [GrpcStatus.RESOURCE_EXHAUSTED, 429],
    [GrpcStatus.UNAVAILABLE, 503],
    [GrpcStatus.DEADLINE_EXCEEDED, 504],
    [GrpcStatus.INTERNAL, 500],
    [GrpcStatus.DATA_LOSS, 500],
  ])('gRPC %s without a detail answers HTTP %s', (code, http) => {
    expect(httpStatusForGrpc(code)).toBe(http);
  });

  test('a public error keeps its HTTP status and body and picks the matching gRPC status', () => {
    expect(errors.paymentRequired({ error: 'insufficient_credits' })).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      httpStatus: 402,
      body: { error: 'insufficient_credits' },
    });
    expect(errors.validation([{ loc: ['body', 'name'], msg: 'required', type: 'missing' }])).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
      httpStatus: 422,
    });
    expect(grpcStatusForHttp(418)).toBe(GrpcStatus.INTERNAL);
    expect(httpError(409, { detail: 'taken' }).message).toBe('taken');
  });
});

import { status as GrpcStatus } from '@grpc/grpc-js';
import { fromServiceError, isBackendOutage, toServiceError } from '../src';

/** Issue 30: a backend out of reach is a 503 its caller may retry, never a 500. */
describe('a backend outage', () => {
  const named = (name: string, message = 'connect ECONNREFUSED 127.0.0.1:27019') =>
    Object.assign(new Error(message), { name });

  test("is recognised by the drivers' own errors, also as the cause of another", () => {
    expect(isBackendOutage(named('MongoServerSelectionError', 'Server selection timed out after 5000 ms'))).toBe(true);
    expect(isBackendOutage(named('MaxRetriesPerRequestError'))).toBe(true);
    expect(isBackendOutage(named('KafkaJSConnectionError'))).toBe(true);
    expect(isBackendOutage(new Error('Connection is closed.'))).toBe(true);
    expect(isBackendOutage(new Error('reserve failed', { cause: named('MongoNetworkError') }))).toBe(true);
  });

  test('is not a program error, a refused request or a non-error', () => {
    expect(isBackendOutage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isBackendOutage(named('MongoServerError', 'E11000 duplicate key error'))).toBe(false);
    expect(isBackendOutage('ECONNREFUSED')).toBe(false);
  });

  test('crosses gRPC as UNAVAILABLE with the 503 error body, while other crashes stay 500', () => {
    const outage = fromServiceError(toServiceError(named('MongoServerSelectionError')) as never);
    expect({ code: outage.code, status: outage.httpStatus, body: outage.body }).toEqual({
      code: GrpcStatus.UNAVAILABLE,
      status: 503,
      body: { detail: expect.stringMatching(/unavailable.*retry/) },
    });
    const crash = fromServiceError(toServiceError(new TypeError('boom')) as never);
    expect({ code: crash.code, status: crash.httpStatus }).toEqual({ code: GrpcStatus.INTERNAL, status: 500 });
  });
});

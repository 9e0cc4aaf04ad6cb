import { errors, type RdeError } from './errors';

/**
 * The errors the drivers raise when their server cannot be reached right now (stopped, restarting,
 * failing over), as opposed to a request or a program that is wrong: MongoDB's, ioredis' and
 * kafkajs' names for a lost or refused connection, a server not selected in time, retries spent.
 */
const OUTAGE_ERROR_NAMES: ReadonlySet<string> = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MaxRetriesPerRequestError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSRequestTimeoutError',
]);

/** ioredis' plain Error for a command sent on a connection that has closed. */
const REDIS_CLOSED = 'Connection is closed.';

/** Whether the error, or one it was caused by, says a backend is out of reach for now. */
export function isBackendOutage(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (OUTAGE_ERROR_NAMES.has(cause.name) || cause.message === REDIS_CLOSED) return true;
  }
  return false;
}

/**
 * What a caller is told while a backend is out of reach: 503 with the usual error body, so a
 * client retries later instead of reading a 500 as a bug (issue 30).
 */
export function backendUnavailable(): RdeError {
  return errors.unavailable('A backend RDE depends on is unavailable for the moment; retry shortly');
}

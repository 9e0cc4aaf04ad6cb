import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What Node's HTTP parser refuses before any route runs, answered in the spec's error body like
 * every other refusal: 431 for headers (the URL with its query included) over the server's limit,
 * 408 for a request that did not arrive in time, 400 for bytes that are not HTTP.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request headers (the URL with its query included) are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request did not arrive in time']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

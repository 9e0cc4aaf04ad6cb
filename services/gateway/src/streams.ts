/**
 * Waits for a gRPC stream's first message, so a failure before any byte (an unknown dataset's or
 * release's 404) is answered as a JSON error instead of a broken download.
 */
export async function started<T>(items: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = items[Symbol.asyncIterator]();
  const first = await iterator.next();
  return (async function* () {
    try {
      for (let next = first; !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.(); // the client went away: cancel the gRPC stream too
    }
  })();
}

/** The bytes of a stream of `{chunk}` messages. */
export async function* bytesOf(chunks: AsyncIterable<{ readonly chunk: Uint8Array }>): AsyncIterable<Buffer> {
  for await (const { chunk } of chunks) yield Buffer.from(chunk);
}

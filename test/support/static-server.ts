import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain static HTTP server on loopback standing in for a release store (a bucket or CDN):
 * serves fixed bytes by path and records every path asked for.
 */
export interface StaticServer {
  readonly url: string;
  readonly requested: string[];
  close(): Promise<void>;
}

export async function startStaticServer(files: ReadonlyMap<string, Buffer>): Promise<StaticServer> {
  const requested: string[] = [];
  const server: Server = createServer((request, response) => {
    requested.push(request.url ?? '');
    const body = files.get(request.url ?? '');
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/octet-stream' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

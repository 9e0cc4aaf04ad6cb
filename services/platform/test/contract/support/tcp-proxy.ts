import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to a server on loopback that can be closed, connections and all, and opened again on
 * the same port: what a client sees of that server's restart, with the server's data kept.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: number,
  ) {}

  listen(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    return new Promise((done) => this.server!.listen(this.port, '127.0.0.1', done));
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  }
}

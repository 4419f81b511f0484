import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port free on 127.0.0.1 right now (bound, then let go), for a server a test starts under its own name. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Listens on 127.0.0.1 and returns the port and a close that destroys the connections still open
 * (a receiver that hangs keeps them), so the test leaves nothing behind.
 */
export async function listenOnLoopback(server: Server | import('node:http').Server): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

import type { Server } from 'node:net';

/** The TCP port a listening server is bound to (an IPC server or one not listening has none), for serve,
 * exec, and conform's receiver and recording proxy: three layers, one module below them. */
export function listeningPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return address.port;
}

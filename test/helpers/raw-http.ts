import { connect, type Socket } from 'node:net';

/** An HTTP/1.1 exchange over a socket of its own, written in parts: for requests caught in flight. */
export interface RawExchange {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  answer: Promise<string>;
  /** Resolves once this many bytes (or this text) have arrived. */
  received(what: string): Promise<string>;
  write(text: string): void;
}

export function rawExchange(baseUrl: string, first: string): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(first);
      resolve({ socket, answer, received, write: (text) => socket.write(text) });
    });
    let text = '';
    const waiters: Array<() => void> = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
    const answer = new Promise<string>((done) =>
      socket.on('close', () => {
        done(text);
        for (const wake of waiters.splice(0)) wake();
      }),
    );
    socket.once('error', reject);
    socket.on('error', () => undefined);
    const received = async (what: string): Promise<string> => {
      while (!text.includes(what)) {
        if (socket.destroyed) throw new Error(`connection closed before "${what}" arrived; got: ${text.slice(0, 300)}`);
        await new Promise<void>((wake) => waiters.push(wake));
      }
      return text;
    };
  });
}

/** The head of a POST with a JSON body of `length` bytes (the body follows separately). */
export function postHead(baseUrl: string, path: string, length: number, headers: Record<string, string> = {}): string {
  const { host } = new URL(baseUrl);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
}

/** Status line, headers (lower-cased names) and body of one HTTP/1.1 answer. */
export function parseAnswer(answer: string): { status: number; headers: Record<string, string>; body: string } {
  // Interim answers (100 Continue) come first.
  const text = answer.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}

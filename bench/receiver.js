// A local webhook receiver for the benchmarks, in its own process: answers every POST with the
// status given as argv[2] (default 200) and a tiny JSON body, keep-alive. GET /stats returns how
// many POSTs it answered. Prints its URL, then serves.
import { createServer } from 'node:http';

const status = Number(process.argv[2] ?? 200);
let posts = 0;
const answer = JSON.stringify({ ok: status < 300 });
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ posts }));
    return;
  }
  req.on('data', () => {});
  req.on('end', () => {
    posts += 1;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

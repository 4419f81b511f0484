// A local webhook receiver for the benchmarks, in its own process: answers every POST with the
// status given as argv[2] (default 200) and a tiny JSON body, keep-alive; `fail-third` answers 503
// to every third POST and 200 to the others, `fail-twentieth` to every twentieth (5%); argv[3], if given, delays every answer by that many ms
// (a receiver that does some work). GET /stats returns how many POSTs it answered.
// Prints its URL, then serves.
import { createServer } from 'node:http';

const failEvery = { 'fail-third': 3, 'fail-twentieth': 20 }[process.argv[2]] ?? 0;
const fixed = failEvery ? 200 : Number(process.argv[2] ?? 200);
const delayMs = Number(process.argv[3] ?? 0);
let posts = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ posts }));
    return;
  }
  req.on('data', () => {});
  req.on('end', () => (delayMs > 0 ? setTimeout(answer, delayMs) : answer()));
  const answer = () => {
    posts += 1;
    const status = failEvery && posts % failEvery === 0 ? 503 : fixed;
    const body = JSON.stringify({ ok: status < 300 });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

import { join } from 'node:path';
import { cannon, loadFixtures, removeDir, ROOT, startChildServer, startServe, tempDir } from '../lib.js';

const CONNECTIONS = 50;

async function load(url, headers, seconds) {
  const result = await cannon({
    url: `${url}/v1/sessions`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ host_user_ref: 'member_bench' }),
  });
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0 || ok === 0) {
    throw new Error(`load on ${url} was not all 2xx: 2xx=${ok} non2xx=${result.non2xx} errors=${result.errors}`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export default {
  id: 'sessions-throughput',
  title: `POST /v1/sessions, ${CONNECTIONS} connections (req/s)`,
  baseline: 'a bare hono JSON route',
  target: { ratio: 'min', value: 0.7 },
  async run({ quick }) {
    const seconds = quick ? 4 : 10;
    const baselineServer = await startChildServer(join(ROOT, 'bench', 'baseline-hono.js'));
    let baseline;
    try {
      await load(baselineServer.url, {}, 1); // warm-up
      baseline = await load(baselineServer.url, {}, seconds);
    } finally {
      await baselineServer.stop();
    }
    const dir = tempDir();
    const fixtures = loadFixtures(dir);
    const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir });
    let subject;
    try {
      const auth = { authorization: `Bearer ${fixtures.testSecret}` };
      await load(serve.baseUrl, auth, 1);
      subject = await load(serve.baseUrl, auth, seconds);
    } finally {
      await serve.stop();
      removeDir(dir);
    }
    return {
      value: subject.rps,
      baselineValue: baseline.rps,
      unit: 'req/s',
      note: `${seconds} s each after 1 s warm-up; p99 ${subject.p99} ms vs ${baseline.p99} ms; every answer 201`,
    };
  },
};

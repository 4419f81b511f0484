// `npm run test:image`: builds the Dockerfile with podman against a local stand-in of its base
// image, then runs it as a user would: port, volume, health check, a scan from the host with a
// delivery to a receiver on the host, the Host check, stop with an export, a restart on the same
// volume, a process that is not root. Plain Node (no dependency): it runs on Node 20. The image is
// built from the single executable, dist/exe/scanctl (`npm run test:image` builds it first).
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseImages } from './base-image.mjs';
import { ensureTools, podman, removePodmanConf, runAsync, RUNTIME } from './podman.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
process.on('exit', removePodmanConf);
const IMAGE = 'localhost/scanctl:test';
const fixtures = JSON.parse(readFileSync(join(ROOT, 'fixtures/default.json'), 'utf8'));
const demo = fixtures.apps[0];
const SECRET_KEY = demo.keys.test.secret;
const SIGNING_SECRET = demo.webhook_secret;

const times = {};
const clock = () => performance.now();
function step(name, work) {
  const started = clock();
  const value = work();
  times[name] = Math.round(clock() - started);
  return value;
}
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}

/** A webhook receiver on the host: checks each delivery's HMAC over the raw bytes, as a backend would. */
function startReceiver() {
  const deliveries = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const expected = createHmac('sha256', SIGNING_SECRET).update(body).digest('hex');
      const valid = req.headers['service-signature'] === expected;
      deliveries.push({ valid, type: req.headers['service-event-type'], event: JSON.parse(body.toString('utf8')) });
      res.writeHead(valid ? 204 : 400).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hooks`,
        deliveries,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One request with a chosen Host header (fetch does not let a caller set it). */
function get(port, path, host) {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host: host ?? `127.0.0.1:${port}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    })
      .on('error', reject)
      .end();
  });
}

/** Polls the container's health route until it answers ready (bounded: the emulator starts in about a second). */
async function untilReady(port, name) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await get(port, '/_scanctl/health').catch(() => null);
    if (answer?.status === 200 && answer.body.ready) return;
    if (Date.now() > deadline) throw new Error(`not ready after 60 s:\n${podman(['logs', name], { allowFail: true }).stderr}`);
    if (podman(['inspect', '--format', '{{.State.Running}}', name]).stdout.trim() !== 'true')
      throw new Error(`the container exited:\n${podman(['logs', name], { allowFail: true }).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function startContainer(name, volume, port) {
  podman([
    'run',
    '-d',
    '--name',
    name,
    ...RUNTIME,
    '--network',
    'host',
    '-v',
    `${volume}:/data`,
    '-e',
    `SCANCTL_PORT=${port}`,
    '-e',
    'SCANCTL_ALLOWED_HOSTS=localhost,127.0.0.1,scanctl',
    '-e',
    'SCANCTL_EXPORT_ON_EXIT=/data/state.json',
    IMAGE,
  ]);
}

/** scanctl from the image, as a client on the host's network (the host may have only Node 20). */
const client = (port, args) =>
  runAsync('podman', ['run', '--rm', ...RUNTIME, '--network', 'host', IMAGE, '--base-url', `http://127.0.0.1:${port}`, ...args]);

async function main() {
  const started = clock();
  ensureTools();
  if (!existsSync(join(ROOT, 'dist/exe/scanctl'))) throw new Error('dist/exe/scanctl is not built: npm run build:exe');
  const base = step('base image', () => baseImages());
  console.log(`base images ${base.glibc}, ${base.debian} (${base.built ? 'built now' : 'cached'})`);
  const previous = podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE], { allowFail: true }).stdout.trim();
  step('image build', () =>
    podman([
      'build',
      '--format',
      'docker',
      '--isolation=chroot',
      '--pull=never',
      '--network',
      'host',
      '--build-arg',
      `BASE_IMAGE=${base.glibc}`,
      '--build-arg',
      `PREP_IMAGE=${base.debian}`,
      '-t',
      IMAGE,
      ROOT,
    ]),
  );
  // The image this tag named before, if the build replaced it (the build stage's cached layers stay).
  const current = podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE]).stdout.trim();
  if (previous && previous !== current) podman(['rmi', previous], { allowFail: true });
  const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]).stdout.trim());
  const config = JSON.parse(podman(['image', 'inspect', IMAGE]).stdout)[0];
  check(
    JSON.stringify(config.Config?.Healthcheck?.Test ?? config.Healthcheck?.Test) === '["CMD","scanctl","health"]',
    'the image keeps its HEALTHCHECK: scanctl health (docker format)',
  );
  const found = step('image files', () => imageCommands(['cc', 'gcc', 'make', 'python3', 'curl', 'sh', 'node', 'npm', 'apt-get']));
  check(
    found.length === 0,
    `no compiler, make, python, curl, shell, node, npm or apt in the final image${found.length ? `: ${found}` : ''}`,
  );
  check(size <= 160e6, `the image is ${(size / 1e6).toFixed(1)} MB, at most 160 MB (the executable on a glibc base)`);

  const id = randomBytes(4).toString('hex');
  const volume = `scanctl-test-${id}`;
  const names = [`scanctl-test-${id}-a`, `scanctl-test-${id}-b`];
  const receiver = await startReceiver();
  podman(['volume', 'create', volume]);
  try {
    const port = await freePort();
    await stepAsync('first run', async () => {
      startContainer(names[0], volume, port);
      await untilReady(port, names[0]);
      check(podman(['healthcheck', 'run', names[0]], { allowFail: true }).code === 0, 'podman healthcheck run: healthy');
      const pid = podman(['inspect', '--format', '{{.State.Pid}}', names[0]]).stdout.trim();
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const uid = /^Uid:\s+(\d+)/m.exec(status)[1];
      check(uid === '1000', `the container's process runs as uid ${uid} (node), not root`);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      check(
        /^(\/usr\/local\/bin\/)?scanctl (\/usr\/local\/bin\/)?serve$/.test(command) && /^NSpid:\s+\d+\s+1$/m.test(status),
        `the container's PID 1 is the scanctl executable itself: ${command}`,
      );

      const minted = await fetch(`http://127.0.0.1:${port}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' },
        body: '{"host_user_ref":"member_host"}',
      });
      check(
        minted.status === 201 && (await minted.json()).session_token.startsWith('vst_'),
        'a session minted from the host through the port',
      );
      await client(port, ['app', 'update', '--webhook-url', receiver.url]);
      const simulated = await client(port, ['scan', 'simulate', '--user', 'member_host', '--wait', '--json']);
      const scan = JSON.parse(simulated.stdout.trim().split('\n')[0]);
      check(
        receiver.deliveries.length > 0 && receiver.deliveries.every((d) => d.valid),
        `${receiver.deliveries.length} delivery(ies) reached the host's receiver, each signature verified with HMAC-SHA256`,
      );
      check(
        receiver.deliveries.some((d) => d.event.data?.scan_id === scan.scan_id),
        `the delivery names the simulated scan ${scan.scan_id}`,
      );

      const refused = await get(port, '/_scanctl/health', `evil.example:${port}`);
      check(
        refused.status === 403 && refused.body.error.code === 'host_not_allowed',
        'a Host it was not told is refused: 403 host_not_allowed',
      );
      check(
        (await get(port, '/_scanctl/health', `scanctl:${port}`)).status === 200,
        'the allowed service name (SCANCTL_ALLOWED_HOSTS) is admitted',
      );

      const stopStarted = clock();
      podman(['stop', '-t', '20', names[0]]);
      const stopMs = Math.round(clock() - stopStarted);
      const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', names[0]]).stdout.trim();
      check(
        exitCode === '0' && stopMs < 15_000,
        `podman stop ends serve cleanly: exit ${exitCode} in ${stopMs} ms (scanctl, PID 1, handles SIGTERM)`,
      );
      const mount = podman(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume]).stdout.trim();
      const state = JSON.parse(readFileSync(join(mount, 'state.json'), 'utf8'));
      check(
        state.format === 'scanctl-state' && state.tables.apps.some((app) => app.id === demo.id && app.webhook_url === receiver.url),
        'stop wrote the export to the volume (SCANCTL_EXPORT_ON_EXIT)',
      );
      return scan;
    }).then(async (scan) => {
      await stepAsync('second run', async () => {
        startContainer(names[1], volume, port);
        await untilReady(port, names[1]);
        const app = await get(port, `/_scanctl/apps/${demo.id}`);
        const scans = await get(port, `/_scanctl/apps/${demo.id}/scans`);
        check(
          app.body.webhook_url === receiver.url && scans.body.data.some((s) => s.id === scan.scan_id),
          'a new container on the same volume keeps the state (the webhook URL, the scan)',
        );
        podman(['stop', '-t', '20', names[1]]);
      });
    });
  } finally {
    for (const name of names) podman(['rm', '-f', name], { allowFail: true });
    podman(['volume', 'rm', '-f', volume], { allowFail: true });
    await receiver.close();
  }
  times.total = Math.round(clock() - started);
  console.log(`image ${IMAGE}: ${(size / 1e6).toFixed(1)} MB`);
  console.log(
    `times (ms): ${Object.entries(times)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

/** Which of these commands the image holds anywhere on a PATH folder or under /usr (read from its mounted file system: it has no shell). */
function imageCommands(names) {
  const mount = podman(['image', 'mount', IMAGE]).stdout.trim();
  try {
    const dirs = ['usr/local/bin', 'usr/local/sbin', 'usr/bin', 'usr/sbin', 'bin', 'sbin'];
    const present = dirs.flatMap((dir) => (existsSync(join(mount, dir)) ? readdirSync(join(mount, dir)) : []));
    const modules = existsSync(join(mount, 'usr/lib/node_modules')) || existsSync(join(mount, 'usr/local/lib/node_modules'));
    return [...names.filter((name) => present.includes(name)), ...(modules ? ['node_modules'] : [])];
  } finally {
    podman(['image', 'unmount', IMAGE], { allowFail: true });
  }
}

async function stepAsync(name, work) {
  const started = clock();
  const value = await work();
  times[name] = Math.round(clock() - started);
  return value;
}

main().catch((error) => {
  console.error(`test:image failed: ${error.message}`);
  process.exitCode = 1;
});

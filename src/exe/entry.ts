// The CLI's bundle in the executable (bin/build-exe.mjs): what its main script (loader.ts) runs.
export { main } from '../cli/main.js';

/** The build's training run (train.ts), imported only by it: a command's start does not load it. */
export async function train(): Promise<void> {
  await (await import('./train.js')).train();
}

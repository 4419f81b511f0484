// The executable's main script when it carries a startup snapshot (bin/build-exe.mjs --cache
// snapshot): run once at build time, it evaluates what every command line loads (the CLI's program,
// commander, zod and the contract's operations) into the snapshot; each start deserializes that
// and runs the command line.
import { startupSnapshot } from 'node:v8';
import '../cli/main.js';
import '../contract/operations/index.js';
import { runExecutable } from './main.js';

startupSnapshot.setDeserializeMainFunction(runExecutable);

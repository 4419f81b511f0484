// The executable's main script when it carries V8's code cache (bin/build-exe.mjs --cache code).
import { runExecutable } from './main.js';

runExecutable();

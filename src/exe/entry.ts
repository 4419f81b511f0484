// The executable's main script, bundled by bin/build-exe.mjs (with V8's code cache unless --cache none).
import { runExecutable } from './main.js';

runExecutable();

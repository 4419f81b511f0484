// The floor of `scanctl exec -- true` on Node: the least any emulator-around-a-command does, in a
// bare script: node:crypto, SQLite in memory with one table, an HTTP server on 127.0.0.1, the
// command spawned and waited for, then everything closed. No scanctl code. bench/cases/executable.js.
'use strict';
const { createHash } = require('node:crypto');
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { join } = require('node:path');
const Database = require('better-sqlite3');

// The addon by its path, as the executable hands it over (no lookup of it).
const addon = join(__dirname, '..', 'node_modules', 'better-sqlite3', 'prebuilds', `${process.platform}-${process.arch}.node`);
const db = new Database(':memory:', { nativeBinding: addon });
db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, body TEXT)');
createHash('sha256').update('sk_test_').digest('hex');
const server = createServer((req, res) => res.end('{}'));
server.listen(0, '127.0.0.1', () => {
  const child = spawn('true', [], {
    stdio: 'inherit',
    env: { ...process.env, SCANCTL_BASE_URL: `http://127.0.0.1:${server.address().port}` },
  });
  child.on('exit', (code) => {
    server.close();
    db.close();
    process.exitCode = code ?? 1;
  });
});

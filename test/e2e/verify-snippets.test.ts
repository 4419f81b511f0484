import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../src/verify.js';
import { tempDir } from '../helpers/temp.js';

const DOC = fileURLToPath(new URL('../../docs/testing.md', import.meta.url));

/** The docs/testing.md code block in `language`, as a reader would copy it. */
function snippet(language: string): string {
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readFileSync(DOC, 'utf8'));
  if (!match) throw new Error(`docs/testing.md has no ${language} block`);
  return match[1]!;
}

/** Whether the toolchain answers (`go version`; the others take --version). */
const has = (command: string) => spawnSync(command, [command === 'go' ? 'version' : '--version'], { encoding: 'utf8' }).status === 0;

/** Each language's program prints `true` or `false` for the body, signature and secret in BODY_FILE, SIGNATURE, SECRET. */
const PROGRAMS: Record<string, { tool: string; file: string; source: (code: string) => string; run: (file: string) => string[] }> = {
  python: {
    tool: 'python3',
    file: 'verify.py',
    source: (code) =>
      `${code}\nimport os\nprint("true" if verify_signature(open(os.environ["BODY_FILE"], "rb").read(), os.environ["SIGNATURE"], os.environ["SECRET"]) else "false")\n`,
    run: (file) => ['python3', file],
  },
  go: {
    tool: 'go',
    file: 'verify.go',
    // The library's file as a program: package main, its imports and a main around its VerifySignature.
    source: (code) =>
      `${code.replace(/^package scanctltest$/m, 'package main').replace('import (', 'import (\n\t"fmt"\n\t"os"')}\nfunc main() {\n\tbody, _ := os.ReadFile(os.Getenv("BODY_FILE"))\n\tfmt.Println(VerifySignature(body, os.Getenv("SIGNATURE"), os.Getenv("SECRET")))\n}\n`,
    run: (file) => ['go', 'run', file],
  },
  ruby: {
    tool: 'ruby',
    file: 'verify.rb',
    source: (code) =>
      `${code}\nputs Scanctl.verify_signature(File.binread(ENV["BODY_FILE"]), ENV["SIGNATURE"], ENV["SECRET"]) ? "true" : "false"\n`,
    run: (file) => ['ruby', file],
  },
};

/**
 * WH-2 for servers not written in Node: the Python, Go and Ruby checks in docs/testing.md, run as a
 * reader would copy them, accept what scanctl signs and refuse a changed body, another secret and a
 * missing signature. A language whose toolchain is not installed is skipped (.ci/run installs them).
 */
describe('the signature checks in other languages (docs/testing.md)', () => {
  const secret = 'whsec_demoSigningSecret0000000000000001';
  // Bytes as sent: JSON with a non-ASCII name, exactly as signed.
  const body = Buffer.from('{"id":"evt_1","type":"scan.completed","data":{"host_user_ref":"membre_é","scan_id":"scn_1"}}', 'utf8');
  const signature = signPayload(body, secret);

  for (const [language, program] of Object.entries(PROGRAMS)) {
    it.skipIf(!has(program.tool))(`WH-2: the ${language} check accepts scanctl's signature and refuses the rest`, () => {
      const dir = tempDir('scanctl-snippets-');
      const file = join(dir, program.file);
      writeFileSync(file, program.source(snippet(language)));
      const check = (bodyBytes: Buffer, sig: string, key: string) => {
        const bodyFile = join(dir, 'body');
        writeFileSync(bodyFile, bodyBytes);
        const [command, ...args] = program.run(file);
        const result = spawnSync(command!, args, {
          cwd: dir,
          encoding: 'utf8',
          timeout: 120_000,
          env: {
            ...process.env,
            BODY_FILE: bodyFile,
            SIGNATURE: sig,
            SECRET: key,
            GOCACHE: join(dir, 'go-cache'),
            GOPATH: join(dir, 'go'),
          },
        });
        expect(result.stderr).toBe('');
        return result.stdout.trim();
      };
      expect(check(body, signature, secret)).toBe('true');
      expect(check(body, ` ${signature.toUpperCase()} `, secret)).toBe('true');
      expect(check(Buffer.concat([body, Buffer.from(' ')]), signature, secret)).toBe('false');
      expect(check(body, signature, `${secret}x`)).toBe('false');
      expect(check(body, '', secret)).toBe('false');
    });
  }
});

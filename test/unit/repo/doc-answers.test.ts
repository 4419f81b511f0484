import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const shellBlocks = (page: string) => [...read(page).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('the questions a backend team asked, answered where they read', () => {
  it("one rule for scan simulate --json's summary: the line whose object is simulated_scan, picked so in every example", () => {
    expect(read('docs/device.md')).toContain('**The summary of a scan is the line whose `object` is `"simulated_scan"`**');
    const readers = [
      ...shellBlocks('docs/ci.md').flatMap((b) => b.split('\n')),
      ...shellBlocks('docs/testing.md').flatMap((b) => b.split('\n')),
    ].filter((line) => /scan simulate .*--json \|/.test(line));
    expect(readers.length).toBeGreaterThan(0);
    for (const line of readers) {
      expect(line).toContain('.find((o) => o.object === "simulated_scan")');
      expect(line).not.toMatch(/tail -n|head -n/);
    }
    const check = read('examples/backend/ci-check.js');
    expect(check).toContain(".find((line) => line.object === 'simulated_scan')");
    expect(check).not.toMatch(/split\('\\n'\)\[\d\]/);
  });

  it('docs/testing.md: chaos --fail-first never reaches the handler, and the recipe for a handler that fails once', () => {
    const page = read('docs/testing.md');
    expect(page).toContain('fails attempt 1 **inside the emulator**: nothing is sent, so\nyour handler never sees that attempt');
    expect(page).toMatch(/```ts\n {4}const saved = new Map<string, CompletedScan>\(\);[\s\S]*?store[\s\S]*?```/);
  });

  it('docs/testing.md: results delivery is off under exec, and how to switch it on', () => {
    const page = read('docs/testing.md');
    expect(page).toContain('**Results delivery is off** under `exec`');
    expect(page).toContain('scanctl app update --results-delivery on');
  });

  it('docs/testing.md gives the request and the answer of DELETE /v1/results, each with its rule', () => {
    const page = read('docs/testing.md');
    expect(page).toContain('`DELETE /v1/results?host_user_ref=member_1` with `Authorization: Bearer <secret\nkey>`');
    expect(page).toContain('`200 {"host_user_ref":"member_1","deleted":2}`');
    for (const rule of ['DEL-1', 'DEL-2', 'DEL-3', 'AUTH-4']) expect(page).toContain(`(${rule})`);
  });

  it('docs/webhooks.md: what webhook check sends into a handler, and the case of recorded header names', () => {
    const page = read('docs/webhooks.md');
    expect(page).toContain('synthetic events, correctly signed');
    expect(page).toContain('into your real handler and so into its real store');
    expect(page).toContain("A recorded delivery's `request.headers`");
    expect(page).toContain('`Service-Signature`, `Service-Event-Id` and `Service-Event-Type` capitalized');
  });

  it("the install story as it is: the clone's measured install time, npm 11's allowScripts warning explained, and scanctl's own allowScripts", () => {
    const readme = read('README.md');
    expect(readme).not.toContain('about 11 s');
    expect(readme).toContain('install and build (27-43 s here: CONTRIBUTING.md)');
    expect(readme).toContain('may warn `not yet covered by allowScripts`: harmless ([why, and how to quiet\nit](docs/testing.md#install))');
    const contributing = read('CONTRIBUTING.md');
    expect(contributing).toContain('then `/usr/bin/time npm install` in it,\nfour runs');
    expect(contributing).toContain('27-43 s');
    const testing = read('docs/testing.md');
    expect(testing).toContain("**npm 11's `allowScripts` warning is harmless.**");
    expect(testing).toContain('`npm install-scripts deny better-sqlite3`');
    const pkg = JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> };
    expect(pkg.allowScripts).toEqual({ '@scarf/scarf': false, 'better-sqlite3': false, esbuild: true });
  });
});

import { describe, expect, it } from 'vitest';
import { commandName } from '../../../src/cli/global-options.js';

describe('which command a command line runs (the CLI and the launcher alike)', () => {
  it("skips options and the values of the global options that take one; nothing after '--' is a command", () => {
    expect(commandName(['serve', '--port', '0'])).toBe('serve');
    expect(commandName(['--app', 'app_demo', 'serve'])).toBe('serve');
    expect(commandName(['--base-url', 'http://127.0.0.1:7226', '--json', 'exec', '--', 'serve'])).toBe('exec');
    expect(commandName(['--json', 'session', 'mint'])).toBe('session');
    expect(commandName(['--app', 'serve', 'clock', 'show'])).toBe('clock');
    expect(commandName(['--', 'serve'])).toBeNull();
    expect(commandName(['--json'])).toBeNull();
    expect(commandName([])).toBeNull();
  });
});

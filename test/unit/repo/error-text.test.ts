import { ESLint } from 'eslint';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No error is classified by its message text (eslint.config.js, NO_MESSAGE_TEXT): the rule catches each way
 * of reading a message, and it is on for every file of src/ and bin/ (the few justified exceptions are
 * inline disables that say why the error has no code).
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });
const MESSAGE = "Tell an error by its class or its code (errorCode, src/util/caught.ts), not its message's text.";

describe('no error told by its message text', () => {
  it('the lint rule flags each way of reading a message, and not a check that there is one', async () => {
    const source = [
      "if (error.message.includes('disk')) n++;",
      "if (String(error.message).startsWith('x')) n++;",
      'if (errorMessage(error).match(/y/)) n++;',
      'if (/z/.test(error.message)) n++;',
      'if (/w/.exec(errorMessage(error))) n++;',
      "if (error.message === 'database is locked') n++;",
      "if ('boom' !== error.message) n++;",
      'if (flags.message !== undefined) n++;',
      'console.log(`failed: ${error.message}`);',
    ].join('\n');
    // A path under bin/: linted without types, so no TypeScript program is built for the check.
    const [result] = await eslint.lintText(source, { filePath: join(ROOT, 'bin', 'probe.mjs') });
    const flagged = result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
    expect(flagged.map((m) => m.message)).toEqual(Array(7).fill(MESSAGE));
    expect(flagged.map((m) => m.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('is on for src/ (beside the JSON.parse rule, also in the files exempt from that one) and bin/', async () => {
    for (const file of ['src/store/storage-condition.ts', 'src/contract/parse-json.ts', 'src/cli/main.ts', 'bin/scanctl.js']) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown[]> };
      const [severity, ...options] = config.rules['no-restricted-syntax']!;
      expect(severity, file).toBe(2);
      expect(options.filter((o) => (o as { message: string }).message === MESSAGE).length, file).toBe(7);
    }
  });
});

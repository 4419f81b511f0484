import { describe, expect, it } from 'vitest';
import { SILENT_LOGGER, streamLogger } from '../../../src/util/logger.js';
import { createEmulator } from '../../../src/emulator/create-emulator.js';
import { openDatabase } from '../../../src/store/db.js';

describe('the Logger a host gives the emulator', () => {
  it('streamLogger writes a warning as one line and an internal error with its stack', () => {
    let text = '';
    const logger = streamLogger({ write: (chunk: string) => (text += chunk) });
    logger.warn('webhook delivery dlv_1: disk I/O error');
    logger.error('internal error', new Error('boom'));
    const [warning, error] = text.split('\n');
    expect(warning).toBe('scanctl: warning: webhook delivery dlv_1: disk I/O error');
    expect(error).toBe('scanctl: internal error: Error: boom');
    expect(text).toMatch(/\n\s+at /);
  });

  it('createEmulator is silent unless given one, and hands the one it is given to its parts', () => {
    const silent = createEmulator({ db: openDatabase(':memory:') });
    expect(silent.logger).toBe(SILENT_LOGGER);
    const logger = streamLogger({ write: () => true });
    expect(createEmulator({ db: openDatabase(':memory:'), logger }).logger).toBe(logger);
  });
});

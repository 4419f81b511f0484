import { describe, expect, it } from 'vitest';
import { streamLogger } from '../../../src/util/logger.js';
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

  it('createEmulator is silent unless given one, and hands what its parts say to the one it is given', () => {
    let text = '';
    const silent = createEmulator({ db: openDatabase(':memory:') });
    silent.logger.warn('nobody hears this');
    silent.logger.storage.note('full', Object.assign(new Error('full'), { code: 'SQLITE_FULL' }));
    const logger = streamLogger({ write: (chunk: string) => (text += chunk) });
    const emulator = createEmulator({ db: openDatabase(':memory:'), logger });
    emulator.logger.warn('webhook delivery dlv_1: boom');
    emulator.logger.error('internal error', new Error('boom'));
    // The emulator's storage log (one per emulator) says its lines through the host's logger.
    emulator.logger.storage.note('full', Object.assign(new Error('full'), { code: 'SQLITE_FULL' }));
    expect(text.split('\n').filter((line) => line.startsWith('scanctl: '))).toEqual([
      'scanctl: warning: webhook delivery dlv_1: boom',
      'scanctl: internal error: Error: boom',
      expect.stringMatching(/^scanctl: storage: the disk holding the database is full/),
    ]);
  });
});

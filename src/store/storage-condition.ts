/**
 * CHOICE-36: the storage conditions the emulator expects and answers plainly, told from what
 * better-sqlite3 throws. Anything else is a bug (internal_error, logged with its stack).
 */
import type { Logger } from '../util/logger.js';
import { onceAMinute, SAY_AGAIN_MS } from '../util/once-a-minute.js';
import { errorCode } from '../util/caught.js';

export type StorageCondition = 'full' | 'io' | 'busy' | 'damaged' | 'closed';

export function storageCondition(error: unknown): StorageCondition | null {
  const code = errorCode(error);
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
    // SQLITE_READONLY: the file or its folder lost write permission while serve ran.
    if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'EIO') return 'io';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  }
  // better-sqlite3's own TypeError once the database is closed (a request still running at a stop). It has no
  // code: the addon throws a bare TypeError (src/util/macros.cpp, "The database connection is not open"), so its
  // message is the one thing that tells it from any other TypeError.
  // eslint-disable-next-line no-restricted-syntax -- the addon's closed-database TypeError has no code: its message is all that tells it apart
  if (error instanceof TypeError && /database connection is not open/.test(error.message)) return 'closed';
  return null;
}

const DESCRIPTIONS: Record<StorageCondition, string> = {
  full: 'the disk holding the database is full (or the database reached its size limit): writes are refused until space is freed',
  io: 'the database file could not be read or written (I/O error): requests that touch it are refused until it can',
  busy: 'the database stayed locked past the busy timeout: the request was refused, nothing was written',
  damaged: 'the database file is damaged: requests that read the damage are refused; stop serve and restore or reset the file',
  closed: 'the database is closed (serve is stopping)',
};

/**
 * One line in the host's log when a condition starts, not one per request: the same condition is
 * said again only after SAY_AGAIN_MS of real time, with how many times it was met meanwhile.
 */
export class StorageConditionLog {
  static readonly SAY_AGAIN_MS = SAY_AGAIN_MS;
  private readonly say: (kind: string, line: string) => void;

  constructor(write: (line: string) => void, now?: () => number) {
    this.say = onceAMinute(write, now);
  }

  note(condition: StorageCondition, error: unknown): void {
    if (condition === 'closed') return;
    const code = errorCode(error);
    this.say(condition, `storage: ${DESCRIPTIONS[condition]} [${typeof code === 'string' ? code : 'closed'}]`);
  }
}

/** A host's logger with the one log it says storage conditions in: the HTTP side and the dispatcher of one emulator share it. */
export interface StorageLogger extends Logger {
  readonly storage: StorageConditionLog;
}

/** `logger` with a storage log of its own (its `info` says the lines); one that has its log already is handed back as it is. */
export function withStorageLog(logger: Logger | StorageLogger): StorageLogger {
  if ('storage' in logger && logger.storage instanceof StorageConditionLog) return logger;
  return {
    warn: (message) => logger.warn(message),
    info: (line) => logger.info(line),
    error: (message, error) => logger.error(message, error),
    storage: new StorageConditionLog((line) => logger.info(line)),
  };
}

/**
 * CHOICE-36: the storage conditions the emulator expects and answers plainly, told from what
 * better-sqlite3 throws. Anything else is a bug (internal_error, logged with its stack).
 */
export type StorageCondition = 'full' | 'io' | 'busy' | 'damaged' | 'closed';

export function storageCondition(error: unknown): StorageCondition | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
    // SQLITE_READONLY: the file or its folder lost write permission while serve ran.
    if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'EIO') return 'io';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  }
  // better-sqlite3's own TypeError once the database is closed (a request still running at a stop).
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
 * One line on stderr when a condition starts, not one per request: the same condition is said
 * again only after SAY_AGAIN_MS of real time, with how many times it was met meanwhile.
 */
export class StorageConditionLog {
  static readonly SAY_AGAIN_MS = 60_000;
  private readonly last = new Map<StorageCondition, { at: number; unsaid: number }>();

  constructor(
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
    private readonly now: () => number = () => performance.now(),
  ) {}

  note(condition: StorageCondition, error: unknown): void {
    if (condition === 'closed') return;
    const seen = this.last.get(condition);
    const now = this.now();
    if (seen && now - seen.at < StorageConditionLog.SAY_AGAIN_MS) {
      seen.unsaid += 1;
      return;
    }
    const again = seen && seen.unsaid > 0 ? ` (${seen.unsaid} more since the last line)` : '';
    const code = (error as { code?: unknown } | null)?.code;
    this.write(`scanctl: storage: ${DESCRIPTIONS[condition]} [${typeof code === 'string' ? code : 'closed'}]${again}\n`);
    this.last.set(condition, { at: now, unsaid: 0 });
  }
}

/** The process's one log of storage conditions (serve has one database). */
export const storageLog = new StorageConditionLog();

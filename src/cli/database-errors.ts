import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './errors.js';
import { errorMessage, errorCode } from '../util/caught.js';

const OPEN_FAILURE =
  /^(SQLITE_(CANTOPEN|NOTADB|CORRUPT|READONLY|IOERR|PERM|AUTH|FULL)|EACCES|EPERM|ENOTDIR|EISDIR|EEXIST|EROFS|ENOSPC|ENOENT|ELOOP|ENAMETOOLONG)/;

const canWrite = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch (error) {
    // A file that does not exist yet is writable when its folder is.
    return errorCode(error) === 'ENOENT';
  }
};

/**
 * The user's error for a database that would not open, or null when it is not one. SQLite says
 * "disk I/O error" when an exclusive lock cannot be taken on a read-only file: say read-only.
 */
export function databaseOpenError(error: unknown, dbPath: string, writable: (path: string) => boolean = canWrite): UserError | null {
  const code = errorCode(error);
  if (typeof code !== 'string' || !OPEN_FAILURE.test(code)) return null;
  const hint = 'pick another file with --db (or --db :memory:)';
  const folder = dirname(resolve(dbPath));
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new UserError(`the disk holding the database ${dbPath} is full: scanctl cannot start on it`, {
      hint: 'free some space, or pick another file with --db (or --db :memory:)',
    });
  }
  // The folder (.scanctl/) could not be made: a read-only folder or mount, or a place like /proc.
  if (error instanceof Error && 'syscall' in error && error.syscall === 'mkdir') {
    return new UserError(
      `cannot create the folder of the database ${dbPath} (${code}${code === 'EROFS' ? ': read-only file system' : ''})`,
      { hint },
    );
  }
  if (code === 'EROFS') return new UserError(`the database ${dbPath} is on a read-only file system`, { hint });
  if (/^(SQLITE_(READONLY|IOERR|CANTOPEN)|EACCES|EPERM)/.test(code)) {
    if (!writable(dbPath)) return new UserError(`the database ${dbPath} is read-only: scanctl needs to write to it`, { hint });
    if (!writable(folder))
      return new UserError(`the folder of the database ${dbPath} is read-only: SQLite writes its journal beside the file`, { hint });
  }
  return new UserError(`cannot open the database ${dbPath}: ${errorMessage(error)}`, { hint });
}

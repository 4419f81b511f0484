// What a caught value says, read without a cast: `catch` hands over `unknown`, and a library may throw anything.

/** The message of an Error, or the value itself as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A string `code` property (Node's `ENOENT`, SQLite's `SQLITE_BUSY`, undici's `UND_ERR_*`), if the value has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

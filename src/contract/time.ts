import { z } from 'zod';

/** Wire timestamps are ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T10:00:00.000Z. */
export const DateTime = z.iso.datetime({ offset: true });

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

import type { z } from 'zod';

/** apps[0].keys.live -> "apps[0].keys.live" */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

/** Where a zod issue points; an unknown field is named by its own path (apps[0].colour), not its parent's. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return formatPath(issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path);
}

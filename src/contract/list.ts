import { z } from 'zod';

/** The list envelope every listing answers with: `{ object: 'list', data: [...] }`, named `id` in the OpenAPI document. */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({ object: z.literal('list'), data: z.array(item) }).meta({ id });
}

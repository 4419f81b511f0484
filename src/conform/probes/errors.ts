import { z } from 'zod';
import { ERROR_TYPES } from '../../contract/errors.js';
import { parseJson } from '../../contract/parse-json.js';
import { Divergence, type Probe } from '../probe.js';

/** ERR-1 exactly: nothing besides error, and nothing in it besides type, code, message and param. */
const StrictErrorBody = z.strictObject({
  error: z.strictObject({ type: z.enum(ERROR_TYPES), code: z.string(), message: z.string(), param: z.string().optional() }),
});

export const errorProbes: readonly Probe[] = [
  {
    rule: 'ERR-1',
    title: 'every error answer of this run is {error: {type, code, message, param?}}',
    requests: 0,
    run(kit) {
      const errors = kit.log.exchanges.filter((e) => e.status !== null && e.status >= 400);
      for (const exchange of errors) {
        const parsed = parseJson(StrictErrorBody, exchange.body);
        if (!parsed.ok)
          throw new Divergence(
            `${exchange.method} ${exchange.path} (${exchange.rule})`,
            'the error body',
            `${exchange.status}: ${parsed.message}`,
          );
      }
      return Promise.resolve(`${errors.length} error answers, each the error body`);
    },
  },
];

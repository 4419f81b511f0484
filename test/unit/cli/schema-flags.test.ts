import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChaosSetRequest } from '../../../src/contract/chaos.js';
import { FaultCreateRequest } from '../../../src/contract/faults.js';
import { fieldOf } from '../../../src/cli/parse-contract-options.js';
import { runCommand } from '../../helpers/cli-in-process.js';

const refusal = (parse: (value: string) => unknown, value: string) => {
  try {
    parse(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('flags that fill a request body take their limits from its schema (one source)', () => {
  it('a number field: whole numbers within its bounds, the message says them; a changed bound changes the refusal', () => {
    const narrow = fieldOf(z.number().int().min(3).max(7).optional());
    expect(narrow('5')).toBe(5);
    expect(refusal(narrow, '8')).toBe('Expected a whole number from 3 to 7.');
    expect(refusal(fieldOf(z.number().int().min(3).max(9)), '8')).toBeNull();
    expect(refusal(fieldOf(z.number().min(0).max(1).default(0)), '0.25')).toBeNull();
    expect(refusal(fieldOf(z.number().min(0).max(1)), '1.5')).toBe('Expected a number from 0 to 1.');
  });

  it("a string field: the schema's own length and pattern", () => {
    const code = fieldOf(FaultCreateRequest.unwrap().shape.code);
    expect(code('rate_limited')).toBe('rate_limited');
    expect(refusal(code, 'Rate-Limited')).toBe('Expected lowercase snake case, like rate_limited.');
    expect(refusal(fieldOf(FaultCreateRequest.unwrap().shape.message), '')).toBe('Expected text of 1 to 500 characters.');
  });

  it('faults add and webhook chaos refuse exactly outside the bounds of FaultCreateRequest and ChaosSetRequest', async () => {
    const status = FaultCreateRequest.unwrap().shape.status;
    const failFirst = ChaosSetRequest.unwrap().shape.fail_first.unwrap();
    const cases: Array<[string[], string]> = [
      [
        ['faults', 'add', '--route', 'POST /v1/sessions', '--code', 'x', '--status', String(status.maxValue! + 1)],
        `a whole number from ${status.minValue} to ${status.maxValue}`,
      ],
      [['webhook', 'chaos', '--fail-first', String(failFirst.maxValue! + 1)], `a whole number from 0 to ${failFirst.maxValue}`],
    ];
    for (const [args, expected] of cases) {
      const res = await runCommand(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(expected);
    }
  });
});

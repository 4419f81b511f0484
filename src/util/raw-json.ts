/**
 * Reading JSON text without going through JavaScript numbers (WH-3): a result is delivered exactly
 * as uploaded, so `12345678901234567890` and `81.0` must reach the webhook as those characters.
 * These functions take text JSON.parse has already accepted; they only find spans in it.
 */

const WHITESPACE = /[ \t\n\r]/;

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
  return i;
}

/** The end (exclusive) of the string starting at the quote at i. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new SyntaxError('unterminated string');
}

/** The end (exclusive) of the value starting at i (i at its first character). */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (ch === '"') j = stringEnd(text, j) - 1;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new SyntaxError('unterminated value');
  }
  let j = i;
  while (j < text.length && !/[,\]}\s]/.test(text[j]!)) j++;
  return j;
}

/** The members of the object whose `{` is at i, as [key, value start, value end], in text order. */
function members(text: string, i: number): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  i = skipWhitespace(text, i + 1);
  if (text[i] === '}') return out;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = String(JSON.parse(text.slice(i, keyEnd)));
    const start = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    out.push([key, start, end]);
    i = skipWhitespace(text, end);
    if (text[i] === '}') return out;
    i = skipWhitespace(text, i + 1);
  }
}

/**
 * The text of a top-level member of a JSON object, as it was sent (CHOICE-19: with duplicate keys,
 * the last one, as JSON.parse decides); undefined when absent.
 */
export function rawMember(text: string, key: string): string | undefined {
  const start = skipWhitespace(text, 0);
  if (text[start] !== '{') return undefined;
  const found = members(text, start)
    .filter(([name]) => name === key)
    .at(-1);
  return found ? text.slice(found[1], found[2]) : undefined;
}

function joined(parts: readonly string[]): string {
  let out = parts[0] ?? '';
  for (let k = 1; k < parts.length; k++) out += `,${parts[k]}`;
  return out;
}

/** An object or array being read by canonicalJson: its members (or items) so far. */
type Open = { kind: 'object'; members: Map<string, string>; key: string | null } | { kind: 'array'; items: string[] };

/**
 * A canonical form of JSON text that keeps numbers as written: object keys sorted, last duplicate
 * wins, strings normalized through JSON.stringify, whitespace dropped. Two uploads are the same
 * result exactly when their canonical texts are equal. One pass with an explicit stack, no
 * recursion: the work is linear in the text and no nesting can overflow the call stack.
 */
export function canonicalJson(text: string): string {
  const stack: Open[] = [];
  let done: string | undefined;
  const put = (value: string) => {
    const top = stack.at(-1);
    if (!top) done = value;
    else if (top.kind === 'array') top.items.push(value);
    else {
      top.members.set(top.key!, value);
      top.key = null;
    }
  };
  let i = skipWhitespace(text, 0);
  while (i < text.length && done === undefined) {
    const ch = text[i]!;
    const top = stack.at(-1);
    if (ch === ',' || ch === ':') {
      i = skipWhitespace(text, i + 1);
      continue;
    }
    if (ch === '"') {
      const end = stringEnd(text, i);
      // The text starts with a quote, so it parses to a string.
      const decoded = String(JSON.parse(text.slice(i, end)));
      if (top?.kind === 'object' && top.key === null) top.key = decoded;
      else put(JSON.stringify(decoded));
      i = end;
    } else if (ch === '{') {
      stack.push({ kind: 'object', members: new Map(), key: null });
      i++;
    } else if (ch === '[') {
      stack.push({ kind: 'array', items: [] });
      i++;
    } else if (ch === '}' || ch === ']') {
      const closed = stack.pop()!;
      // Concatenated, not joined: join copies every nested text again at each level (quadratic).
      if (closed.kind === 'array') put(`[${joined(closed.items)}]`);
      else {
        const keys = [...closed.members.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        put(`{${joined(keys.map((key) => `${JSON.stringify(key)}:${closed.members.get(key)}`))}}`);
      }
      i++;
    } else {
      const end = valueEnd(text, i);
      put(text.slice(i, end));
      i = end;
    }
    i = skipWhitespace(text, i);
  }
  return done ?? '';
}

/**
 * True when a parsed JSON value nests objects and arrays deeper than `max` (the value itself is
 * level 1 when it is an object or array). Iterative, so any depth is measured without recursion.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

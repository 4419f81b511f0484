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
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
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
  const found = members(text, start).filter(([name]) => name === key).at(-1);
  return found ? text.slice(found[1], found[2]) : undefined;
}

/**
 * A canonical form of JSON text that keeps numbers as written: object keys sorted, last duplicate
 * wins, strings normalized through JSON.stringify, whitespace dropped. Two uploads are the same
 * result exactly when their canonical texts are equal.
 */
export function canonicalJson(text: string): string {
  const walk = (i: number): string => {
    const ch = text[i];
    if (ch === '"') return JSON.stringify(JSON.parse(text.slice(i, stringEnd(text, i))));
    if (ch === '{') {
      const byKey = new Map<string, string>();
      for (const [key, start] of members(text, i)) byKey.set(key, walk(start));
      const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((key) => `${JSON.stringify(key)}:${byKey.get(key)}`).join(',')}}`;
    }
    if (ch === '[') {
      const items: string[] = [];
      let j = skipWhitespace(text, i + 1);
      while (text[j] !== ']') {
        items.push(walk(j));
        j = skipWhitespace(text, valueEnd(text, j));
        if (text[j] === ',') j = skipWhitespace(text, j + 1);
      }
      return `[${items.join(',')}]`;
    }
    return text.slice(i, valueEnd(text, i));
  };
  return walk(skipWhitespace(text, 0));
}

/** Every secret, plus its random part alone (so a stored "vst_" + body split in two would still be caught). */
function needles(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    out.add(secret);
    const body = secret.replace(/^(sk|pk|vst|whsec|psess|chl)_(test_|live_)?/, '');
    if (body.length >= 16) out.add(body);
  }
  return [...out];
}

/** The secrets (or their random parts) found in `haystack`, as UTF-8 or UTF-16 bytes. */
export function leaks(haystack: Buffer | string, secrets: Iterable<string>): string[] {
  const bytes = typeof haystack === 'string' ? Buffer.from(haystack) : haystack;
  return needles(secrets).filter((needle) => bytes.includes(Buffer.from(needle)) || bytes.includes(Buffer.from(needle, 'utf16le')));
}

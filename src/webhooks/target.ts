/** A webhook URL as the sender uses it: the pool it goes through, the request line, its credentials. */
export interface Target {
  origin: string;
  path: string;
  authorization: string | null;
}

/** URLs kept parsed at most; past this the cache starts again (a long serve may see many). */
const MAX_TARGETS = 256;

/**
 * The webhook URLs seen, parsed once each: the engine's send slots count a delivery against its
 * origin and the sender sends to it, from one parse (parsing a URL on every attempt showed in profiles).
 */
export class WebhookTargets {
  private readonly parsed = new Map<string, Target | null>();

  /** `raw` parsed; null for a URL the sender refuses (not a URL, or not http or https). */
  of(raw: string): Target | null {
    let target = this.parsed.get(raw);
    if (target !== undefined) return target;
    target = parseTarget(raw);
    if (this.parsed.size >= MAX_TARGETS) this.parsed.clear();
    this.parsed.set(raw, target);
    return target;
  }

  /** The origin a delivery to `url` counts against; null for no URL or one the sender refuses at once. */
  originOf(url: string | null): string | null {
    return url === null ? null : (this.of(url)?.origin ?? null);
  }
}

function parseTarget(raw: string): Target | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // Credentials in the URL go as Basic authorization, as http.request sends them (a bad %-escape refuses the URL).
    const auth = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    return {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      authorization: auth && `Basic ${Buffer.from(auth).toString('base64')}`,
    };
  } catch {
    return null;
  }
}

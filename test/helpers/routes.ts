import type { Hono } from 'hono';

export interface RegisteredRoute {
  method: string;
  /** As registered on hono: /v1/apps/:app_id */
  honoPath: string;
  /** OpenAPI form, one per concrete path: /v1/apps/{app_id} */
  openapiPath: string;
  /** Path parameter names in order. */
  params: string[];
}

/**
 * Every route the emulator app registers, as concrete (method, path) pairs: middleware (ALL)
 * is skipped, `:action{revoke|suspend}` alternations of literals are expanded into one path each,
 * other parameters become `{name}`. New routes show up here (and so in the openapi and fuzz
 * tests) without anyone listing them.
 */
export function registeredRoutes(app: Hono<any>): RegisteredRoute[] {
  const out = new Map<string, RegisteredRoute>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    for (const openapiPath of expand(route.path)) {
      const key = `${route.method} ${openapiPath}`;
      const params = [...openapiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      out.set(key, { method: route.method, honoPath: route.path, openapiPath, params });
    }
  }
  return [...out.values()];
}

function expand(path: string): string[] {
  const match = /:([A-Za-z_][A-Za-z0-9_]*)(\{([^}]*)\})?/.exec(path);
  if (!match) return [path];
  const [whole, name, , pattern] = match;
  const before = path.slice(0, match.index);
  const after = path.slice(match.index + whole.length);
  const literals = pattern !== undefined && /^[A-Za-z0-9_.-]+(\|[A-Za-z0-9_.-]+)*$/.test(pattern) ? pattern.split('|') : null;
  const heads = literals ?? [`{${name}}`];
  return heads.flatMap((head) => expand(after).map((tail) => `${before}${head}${tail}`));
}

/** Fills `{name}` with a value: the demo fixtures' ids where they exist. */
export function fillPath(openapiPath: string, values: Record<string, string> = {}): string {
  const defaults: Record<string, string> = { app_id: 'app_demo', account_id: 'acct_demo' };
  return openapiPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? defaults[name] ?? `sample_${name}`));
}

/**
 * The backend and device routes (/v1/..., except the portal's /v1/apps/...) are called by servers
 * and devices with a key or a token, never by a web page: they skip the Origin check. Every other
 * route (control plane, portal, the web console) refuses other origins (docs/security.md). One rule for
 * the server's host guard and the OpenAPI document's error answers, so the two cannot disagree.
 */
export function originCheckExempt(path: string): boolean {
  return path.startsWith('/v1/') && !path.startsWith('/v1/apps/');
}

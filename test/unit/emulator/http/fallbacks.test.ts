import { describe, expect, it } from 'vitest';
import { routeMatches, routeRegex } from '../../../../src/emulator/http/fallbacks.js';
import { registeredRoutes } from '../../../helpers/routes.js';
import { expectErrorBody, testEmulator } from '../../../helpers/emulator.js';

describe('route fallbacks: 405 versus 404 on hono path patterns', () => {
  it('ERR-2: the matcher understands :name, :name{regex} and optional :name? segments', () => {
    expect(routeMatches('/v1/apps/:app_id', '/v1/apps/app_demo')).toBe(true);
    // CHOICE-15: a trailing slash is another path.
    expect(routeMatches('/v1/apps/:app_id', '/v1/apps/app_demo/')).toBe(false);
    expect(routeMatches('/v1/apps/:app_id', '/v1/apps')).toBe(false);
    expect(routeMatches('/v1/apps/:app_id', '/v1/apps/a/b')).toBe(false);

    const keys = '/_scanctl/apps/:app_id/keys/:action{revoke|suspend|reinstate}';
    for (const action of ['revoke', 'suspend', 'reinstate'])
      expect(routeMatches(keys, `/_scanctl/apps/app_demo/keys/${action}`)).toBe(true);
    for (const action of ['rotate', 'revokeX', 'xrevoke', 'revoke/x', ''])
      expect(routeMatches(keys, `/_scanctl/apps/app_demo/keys/${action}`)).toBe(false);

    expect(routeMatches('/files/:name{[a-z]+\\.json}', '/files/state.json')).toBe(true);
    expect(routeMatches('/files/:name{[a-z]+\\.json}', '/files/state.yaml')).toBe(false);
    expect(routeMatches('/v2/:id2', '/v2/x9')).toBe(true);

    expect(routeMatches('/logs/:app_id?', '/logs')).toBe(true);
    expect(routeMatches('/logs/:app_id?', '/logs/app_demo')).toBe(true);
    expect(routeMatches('/logs/:app_id?', '/logs/a/b')).toBe(false);
    expect(routeMatches('/logs/:kind{a|b}?', '/logs/a')).toBe(true);
    expect(routeMatches('/logs/:kind{a|b}?', '/logs/c')).toBe(false);

    // Literal parts stay literal: a dot is not "any character", a wildcard never matches.
    expect(routeMatches('/openapi.json', '/openapiXjson')).toBe(false);
    expect(routeMatches('/static/*', '/static/x')).toBe(false);
    expect(routeRegex('/a/:b').source).toBe('^\\/a\\/(?:[^/]+)$');
  });

  it('ERR-2: every registered route matches its own concrete paths (the alternations expanded)', () => {
    const emu = testEmulator();
    for (const route of registeredRoutes(emu.app)) {
      const concrete = route.openapiPath.replace(/\{[^}]+\}/g, 'x1');
      expect(routeMatches(route.honoPath, concrete), `${route.honoPath} vs ${concrete}`).toBe(true);
    }
  });

  it('ERR-2: a wrong method on a :name{regex} route is 405 method_not_allowed with Allow, an unknown action is 404', async () => {
    const emu = testEmulator();
    const cases = [
      '/_scanctl/apps/app_demo/keys/revoke',
      '/_scanctl/apps/app_demo/keys/suspend',
      '/_scanctl/apps/app_demo/keys/reinstate',
      '/_scanctl/accounts/acct_demo/suspend',
      '/_scanctl/accounts/acct_demo/reinstate',
      '/_scanctl/installations/ins_1/block',
      '/_scanctl/installations/ins_1/unblock',
    ];
    for (const path of cases) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await emu.call(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(expectErrorBody(res.body).code).toBe('method_not_allowed');
        expect(res.headers.get('allow')).toBe('POST');
      }
    }
    for (const path of [
      '/_scanctl/apps/app_demo/keys/explode',
      '/_scanctl/accounts/acct_demo/delete',
      '/_scanctl/installations/ins_1/wipe',
    ]) {
      const res = await emu.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(expectErrorBody(res.body).code).toBe('route_not_found');
    }
    // The right method still reaches the route.
    const suspended = await emu.call('POST', '/_scanctl/accounts/acct_demo/suspend');
    expect(suspended.status).toBe(200);
  });
});

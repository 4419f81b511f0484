import { Validator } from '@seriousme/openapi-schema-validator';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES, ErrorBody } from '../../../src/contract/errors.js';
import { buildOpenApiDocument } from '../../../src/contract/openapi.js';
import { exampleErrorBody, operationErrors } from '../../../src/contract/openapi-errors.js';
import { EVENTS, OPERATIONS } from '../../../src/contract/operations/index.js';
import { DEMO, portalCookie, testEmulator } from '../../helpers/emulator.js';
import { nonConformance } from '../../helpers/openapi-conformance.js';
import { fillPath, registeredRoutes } from '../../helpers/routes.js';

describe('OpenAPI 3.1 document (VER-1)', () => {
  it('VER-1: is a valid OpenAPI 3.1 document for an independent validator, interface version 1.0.0', async () => {
    const doc = buildOpenApiDocument();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as { version: string }).version).toBe('1.0.0');
  });

  it('every operation and webhook has a description beyond its summary, and no jsonSchemaDialect line (Prism skips body checks with it)', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, any>>; webhooks: Record<string, Record<string, any>> };
    expect(doc).not.toHaveProperty('jsonSchemaDialect');
    const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((item) => Object.values(item));
    expect(operations.length).toBe(OPERATIONS.length + EVENTS.length);
    const undescribed = operations.filter(
      (op) => typeof op.description !== 'string' || op.description.length < 20 || op.description === op.summary,
    );
    expect(undescribed.map((op) => op.operationId)).toEqual([]);
  });

  it('CHOICE-54, DEV-5, CHOICE-6: the document states the clock-advance cap, the scan-event rules, the import bound and a webhook_url with a host', () => {
    const schemas = (buildOpenApiDocument() as { components: { schemas: Record<string, any> } }).components.schemas;
    expect(schemas.ClockAdvanceRequest.description).toContain('100 years');
    expect(schemas.ScanEventRequest.properties.model_version.description).toMatch(/GET \/v1\/models/);
    expect(schemas.ScanEventRequest.properties.occurred_at.description).toContain('5 minutes ahead');
    expect(schemas.StateFile.properties.schema_version).toMatchObject({ minimum: 1, maximum: expect.any(Number) });
    const url = schemas.UpdateAppRequest.properties.webhook_url.anyOf[0];
    const pattern = new RegExp(url.pattern);
    expect(['https://example.com/hooks', 'http://127.0.0.1:4242/h'].every((u) => pattern.test(u))).toBe(true);
    expect(['http://', 'https://', 'ftp://example.com/', 'http:///x'].some((u) => pattern.test(u))).toBe(false);
  });

  it('every contract schema has one name: the export in code is its name in the document', async () => {
    const folder = new URL('../../../src/contract/', import.meta.url);
    const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
    const modules: Record<string, unknown>[] = await Promise.all(files.map((file) => import(new URL(file, folder).href)));
    const named = modules.flatMap((exports) =>
      Object.entries(exports).flatMap(([name, value]) => {
        // Wire bodies are z.lazy (built on first use): the name is on the schema inside.
        const schema = value instanceof z.ZodLazy ? value.unwrap() : value;
        const id = schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.id : undefined;
        return id ? [{ name, id }] : [];
      }),
    );
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter(({ name, id }) => name !== id)).toEqual([]);
  });

  it('documents every route the emulator registers (and nothing it does not)', () => {
    const emu = testEmulator();
    const registered = registeredRoutes(emu.app).map((r) => `${r.method} ${r.openapiPath}`);
    const documented = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);
    const missing = registered.filter((r) => !documented.includes(r));
    const stale = documented.filter((d) => !registered.includes(d));
    // A route without an entry: add one to its area's file in src/contract/operations/.
    expect({ missing }).toEqual({ missing: [] });
    expect({ stale }).toEqual({ stale: [] });
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    for (const op of OPERATIONS) expect(doc.paths[op.path]?.[op.method], `${op.method} ${op.path}`).toBeDefined();
  });

  it('ERR-1: refers every error answer to the one ErrorBody schema, with one example per code at its status', () => {
    const doc = buildOpenApiDocument() as any;
    expect(doc.components.schemas.ErrorBody).toMatchObject({ type: 'object', required: ['error'] });
    for (const op of OPERATIONS) {
      const responses = doc.paths[op.path][op.method].responses;
      for (const code of operationErrors(op)) {
        const response = responses[String(ERROR_CODES[code])];
        expect(response, `${op.operationId} ${code}`).toBeDefined();
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        const example = response.content['application/json'].examples[code].value;
        expect(ErrorBody.parse(example)).toEqual(exampleErrorBody(code));
      }
      // Every status is listed: no catch-all that would make any answer "documented".
      expect(responses.default, op.operationId).toBeUndefined();
    }
  });

  it('every $ref resolves, and the spec-shown schemas are components', () => {
    const doc = buildOpenApiDocument() as any;
    const refs = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string') refs.add(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    for (const id of ['CreateSessionRequest', 'SessionResponse', 'DeleteResultsResponse', 'ErrorBody', 'UpdateAppRequest', 'App']) {
      expect(doc.components.schemas[id], id).toBeDefined();
    }
    expect(doc.paths['/v1/sessions'].post.security).toEqual([{ secretKey: [] }]);
    expect(doc.paths['/v1/results'].delete.parameters).toContainEqual(
      expect.objectContaining({ name: 'host_user_ref', in: 'query', required: true }),
    );
    expect(doc.paths['/v1/apps/{app_id}'].patch.security).toEqual([{ portalCookie: [] }]);
  });

  it('every example in the table matches its own schema', () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      if (op.request?.example !== undefined) {
        expect(op.request.schema.safeParse(op.request.example).error, `${op.operationId} request example`).toBeUndefined();
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.example === undefined || !response.schema) continue;
        expect(response.schema.safeParse(response.example).error, `${op.operationId} ${status} example`).toBeUndefined();
        checked++;
      }
    }
    for (const event of EVENTS) {
      if (event.example !== undefined) {
        expect(event.schema.safeParse(event.example).error, `${event.name} example`).toBeUndefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('what the emulator really answers matches the document (a tour of the backend, portal and control routes)', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    const problems: string[] = [];
    let calls = 0;
    const call = async (method: string, path: string, options: Parameters<typeof emu.call>[2] = {}) => {
      const res = await emu.call(method, path, options);
      calls++;
      const problem = nonConformance(method, path.split('?')[0]!, res.status, res.body);
      if (problem) problems.push(problem);
      return res;
    };
    const json = (value: unknown) => ({ json: value });
    const app = fillPath('{app_id}');

    expect((await call('POST', '/v1/sessions', { key: DEMO.testSecret, ...json({ host_user_ref: 'm1' }) })).status).toBe(201);
    await call('POST', '/v1/sessions', { key: DEMO.testPublishable, ...json({ host_user_ref: 'm1' }) });
    await call('POST', '/v1/sessions', { key: 'sk_test_nope0000000000000000', ...json({ host_user_ref: 'm1' }) });
    await call('POST', '/v1/sessions', { key: DEMO.testSecret, ...json({ host_user_ref: '' }) });
    await call('POST', '/v1/sessions', { key: DEMO.testSecret, ...json({ host_user_ref: 'm', extra: 1 }) });
    await call('POST', '/v1/sessions', { key: DEMO.testSecret, body: '{', headers: { 'content-type': 'application/json' } });
    await call('POST', '/v1/sessions', { key: DEMO.testSecret, body: 'x', headers: { 'content-type': 'text/plain' } });
    await call('POST', '/v1/sessions', { key: DEMO.testSecret, ...json({ host_user_ref: 'm' }), headers: { 'idempotency-key': 'k' } });
    expect((await call('DELETE', '/v1/results?host_user_ref=m1', { key: DEMO.testSecret })).status).toBe(200);
    await call('DELETE', '/v1/results', { key: DEMO.testSecret });
    await call('DELETE', '/v1/results?host_user_ref=m1', { key: DEMO.testPublishable });
    expect((await call('PATCH', `/v1/apps/${app}`, { ...json({ webhook_url: 'http://127.0.0.1:9/h' }), headers: { cookie } })).status).toBe(
      200,
    );
    await call('PATCH', `/v1/apps/${app}`, { ...json({ webhook_url: 'ftp://x' }), headers: { cookie } });
    await call('PATCH', `/v1/apps/${app}`, json({ results_delivery_enabled: true }));
    await call('PATCH', `/v1/apps/${app}`, { key: DEMO.testSecret, ...json({}) });
    await call('PATCH', '/v1/apps/app_nope', { ...json({}), headers: { cookie } });

    for (const path of [
      '/_scanctl/info',
      '/_scanctl/clock',
      '/_scanctl/apps',
      `/_scanctl/apps/${app}`,
      `/_scanctl/apps/${app}/webhook-secret`,
      `/_scanctl/apps/${app}/keys`,
      '/_scanctl/accounts',
      '/_scanctl/apps/app_nope',
      '/_scanctl/openapi.json',
    ]) {
      await call('GET', path);
    }
    expect((await call('POST', '/_scanctl/clock/advance', json({ duration: '1h' }))).status).toBe(200);
    await call('POST', '/_scanctl/clock/advance', json({ duration: 'soon' }));
    await call('POST', '/_scanctl/clock/set', json({ time: '2030-01-01T00:00:00Z' }));
    await call('POST', '/_scanctl/clock/set', json({ time: '2020-01-01T00:00:00Z' }));
    await call('POST', `/_scanctl/apps/${app}/quota`, json({ daily_session_quota: 5 }));
    await call('POST', `/_scanctl/apps/${app}/keys`, json({ env: 'test' }));
    await call('POST', '/_scanctl/apps/app_trial/keys', json({ env: 'live' }));
    expect((await call('POST', `/_scanctl/apps/${app}/keys/rotate`, json({ env: 'test' }))).status).toBe(201);
    for (const action of ['suspend', 'suspend', 'reinstate', 'revoke', 'revoke'])
      await call('POST', `/_scanctl/apps/${app}/keys/${action}`, json({ env: 'live' }));
    await call('POST', `/_scanctl/apps/${app}/keys/revoke`, json({ key_id: 'key_nope' }));
    for (const action of ['suspend', 'reinstate']) await call('POST', `/_scanctl/accounts/acct_demo/${action}`);
    await call('POST', '/_scanctl/accounts/acct_nope/suspend');
    await call('POST', '/_scanctl/portal/login', json({ account_id: 'acct_nope' }));
    expect(calls).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it('the served document is the generated one, pointing at the emulator that serves it', async () => {
    const emu = testEmulator();
    const res = await emu.app.request('http://127.0.0.1:4321/_scanctl/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await res.json()) as any;
    expect(served).toEqual(buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:4321' }));
    expect(served.servers[0].url).toBe('http://127.0.0.1:4321');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// A dependency of @seriousme/openapi-schema-validator, already installed: no YAML parser of our own.
import { parse } from 'yaml';
import { ENVIRONMENT } from '../../../src/contract/environment.js';
import { hostAllowed } from '../../../src/emulator/http/host-guard.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const compose = parse(read('examples/compose/docker-compose.yml'));
const dockerfile = read('Dockerfile');
const fixtures = JSON.parse(read('examples/compose/scanctl-fixtures.json'));

/** The value of `ENV NAME=value` in the Dockerfile's last stage. */
const imageEnv = (name: string) =>
  new RegExp(`^\\s*(?:ENV\\s+)?${name}=([^\\s\\\\]+)`, 'm').exec(dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')))?.[1];

/**
 * Compose cannot run here (no Docker engine): this checks the example's file against what the
 * image and the emulator really do, so that the example cannot drift from them.
 */
describe('examples/compose/docker-compose.yml', () => {
  const scanctl = compose.services.scanctl;
  const backend = compose.services.backend;
  const port = Number(imageEnv('SCANCTL_PORT'));

  it("publishes the image's documented port, and the backend's base URL names the service on it", () => {
    expect(dockerfile).toContain(`EXPOSE ${port}`);
    expect(scanctl.ports).toEqual([`${port}:${port}`]);
    expect(backend.environment.SCANCTL_BASE_URL).toBe(`http://scanctl:${port}`);
  });

  it("uses the image's health check, and the backend waits for it (service_healthy)", () => {
    const healthcheck = /^HEALTHCHECK .*CMD (\[.*\])$/m.exec(dockerfile)![1]!;
    expect(scanctl.healthcheck.test).toEqual(['CMD', ...JSON.parse(healthcheck)]);
    expect(backend.depends_on).toEqual({ scanctl: { condition: 'service_healthy' } });
  });

  it('CHOICE-11: the emulator admits the name the backend uses, and still refuses names it was not told', () => {
    const allowedHosts = scanctl.environment.SCANCTL_ALLOWED_HOSTS.split(',');
    const policy = { port, allowedHosts };
    expect(hostAllowed(new URL(backend.environment.SCANCTL_BASE_URL).host, policy)).toBe(true);
    expect(hostAllowed(`localhost:${port}`, policy)).toBe(true);
    expect(hostAllowed(`backend:${port}`, policy)).toBe(false);
    // The variable replaces the image's default: it keeps the loopback names the health check and the host use.
    expect(allowedHosts).toEqual(expect.arrayContaining(imageEnv('SCANCTL_ALLOWED_HOSTS')!.split(',')));
  });

  it('gives the backend the environment contract, with the values of the fixtures scanctl loads', () => {
    expect(Object.keys(backend.environment).sort()).toEqual(Object.keys(ENVIRONMENT).sort());
    const app = fixtures.apps[0];
    expect(backend.environment).toMatchObject({
      SCANCTL_APP_ID: app.id,
      SCANCTL_SECRET_KEY: app.keys.test.secret,
      SCANCTL_PUBLISHABLE_KEY: app.keys.test.publishable,
      SCANCTL_WEBHOOK_SECRET: app.webhook_secret,
    });
    const mounted = scanctl.volumes.find((volume: string) => volume.startsWith('./scanctl-fixtures.json:'));
    expect(mounted.split(':')[1]).toBe(scanctl.environment.SCANCTL_FIXTURES);
    expect(new URL(app.webhook_url).hostname).toBe('backend');
  });

  it('keeps state in the /data volume, where the export on exit is written', () => {
    expect(scanctl.volumes).toContain('scanctl-data:/data');
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    expect(scanctl.environment.SCANCTL_EXPORT_ON_EXIT).toMatch(/^\/data\//);
    expect(compose.volumes).toHaveProperty('scanctl-data');
  });
});

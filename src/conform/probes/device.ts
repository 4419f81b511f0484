import { OPS } from '../../contract/operations/index.js';
import { describeAnswer, type ProbeKit } from '../kit.js';
import { Divergence, type Probe } from '../probe.js';

/** A scan event body of this run (the status given), occurred a minute ago on the device. */
function scanEvent(
  installationId: string,
  scanId: string,
  status: 'started' | 'completed',
  modelVersion: string,
  occurredAt = new Date(Date.now() - 60_000).toISOString(),
) {
  return { installation_id: installationId, scan_id: scanId, status, occurred_at: occurredAt, model_version: modelVersion };
}

/** An installation of this run enrolled with the stub attestation (DEV-1), its token and the current model. */
export async function enrolledDevice(kit: ProbeKit, member: string) {
  const { bundleId, teamId } = await kit.appIdentity();
  const token = await kit.mint(member);
  const installationId = kit.id('ins');
  // The SDK's own device client: a refusal here is an ApiCallError, reported as the divergence.
  const sdk = kit.device(token);
  const challenge = await sdk.challenge();
  await sdk.enroll({
    installation_id: installationId,
    attestation: { format: 'stub', challenge: challenge.challenge, bundle_id: bundleId, team_id: teamId },
  });
  const models = await sdk.models();
  const current = models.data.find((m) => m.current) ?? models.data[0];
  if (!current) throw new Divergence('GET /v1/models', 'at least one model', 'an empty list');
  return { member, token, installationId, modelVersion: current.model_version, used: false };
}

export type Device = Awaited<ReturnType<typeof enrolledDevice>>;

/**
 * Reports a scan started then completed, each with its own Idempotency-Key. One token authorizes
 * one scan session (SES-6): a scan after the device's first gets a freshly minted token.
 */
export async function reportCompletedScan(kit: ProbeKit, device: Device, scanId: string, occurredAt?: string) {
  if (device.used) device.token = await kit.mint(device.member);
  device.used = true;
  const sdk = kit.device(device.token);
  for (const status of ['started', 'completed'] as const)
    await sdk.scanEvent(scanEvent(device.installationId, scanId, status, device.modelVersion, occurredAt), kit.id('idem'));
}

export const deviceProbes: readonly Probe[] = [
  {
    rule: 'AUTH-13',
    title: 'a secret key has no use on the device routes',
    requests: 1,
    async run(kit) {
      await kit.refusal(OPS.createDeviceChallenge, { bearer: kit.options.key }, 401);
      return 'POST /v1/device/challenge with the secret key: 401';
    },
  },
  {
    rule: 'SES-8',
    title: 'a token without scan.create still reaches the device routes that are not scope-gated',
    requests: 2,
    async run(kit) {
      const token = await kit.mint('ses8', []);
      await kit.success(OPS.createDeviceChallenge, { bearer: token }, 'a challenge');
      return 'a challenge for a token with no scopes';
    },
  },
  {
    rule: 'SES-7',
    title: 'a token without scan.create gets 403 insufficient_scope on POST /v1/scan-events',
    requests: 2,
    async run(kit) {
      const token = await kit.mint('ses7', []);
      await kit.refusal(
        OPS.reportScanEvent,
        {
          bearer: token,
          body: scanEvent(kit.id('ins'), kit.id('scan'), 'started', 'none'),
          headers: { 'idempotency-key': kit.id('idem') },
        },
        403,
        'insufficient_scope',
      );
      return '403 insufficient_scope';
    },
  },
  {
    rule: 'DEV-5',
    title: 'POST /v1/scan-events requires the Idempotency-Key header',
    requests: 2,
    async run(kit) {
      const token = await kit.mint('dev5');
      await kit.refusal(OPS.reportScanEvent, { bearer: token, body: scanEvent(kit.id('ins'), kit.id('scan'), 'started', 'none') }, 400);
      return 'without Idempotency-Key: 400';
    },
  },
  {
    rule: 'DEV-2',
    title: 'an enrollment with another bundle identifier gets 403 attestation_invalid, naming attestation only',
    requests: 3,
    async run(kit) {
      const token = await kit.mint('dev2');
      const challenge = await kit.success(OPS.createDeviceChallenge, { bearer: token });
      const body = {
        installation_id: kit.id('ins'),
        attestation: {
          format: 'stub' as const,
          challenge: challenge.body.challenge,
          bundle_id: `invalid.${kit.prefix}`,
          team_id: 'ZZZZZZZZZZ',
        },
      };
      const error = await kit.refusal(OPS.enrollInstallation, { bearer: token, body }, 403, 'attestation_invalid');
      // The message is what DEV-2 checks (it must name attestation, never the bundle), not a way to tell errors apart.
      // eslint-disable-next-line no-restricted-syntax -- DEV-2 is about the message's words: read as the rule's subject, not to tell errors apart
      if (!/attest/i.test(error.message) || /bundle/i.test(error.message))
        throw new Divergence('POST /v1/device/enrollments', 'a message naming attestation, not the bundle', error.message);
      return '403 attestation_invalid';
    },
  },
  {
    rule: 'SES-5',
    title: 'a token works for 15 minutes, then is expired',
    requests: 3,
    needs: ['clock-or-slow'],
    async run(kit) {
      const token = await kit.mint('ses5');
      await kit.success(OPS.createDeviceChallenge, { bearer: token }, 'the fresh token accepted');
      await kit.passTime(15 * 60_000 + 2_000);
      await kit.refusal(OPS.createDeviceChallenge, { bearer: token }, 401);
      return 'accepted fresh, 401 after 15 minutes';
    },
  },
  {
    rule: 'DEV-4',
    title: 'an attested installation gets the model key with its session token',
    requests: 6,
    needs: ['attestation'],
    async run(kit) {
      const device = await enrolledDevice(kit, 'dev4');
      const key = await kit.device(device.token).modelKey({ installation_id: device.installationId, model_version: device.modelVersion });
      return `the model key of ${key.model_version}`;
    },
  },
  {
    rule: 'SES-6',
    title: 'one token authorizes one scan session: a second scan with it is refused',
    requests: 9,
    needs: ['attestation', 'scans'],
    async run(kit) {
      const device = await enrolledDevice(kit, 'ses6');
      await reportCompletedScan(kit, device, kit.id('scan'));
      const answer = await kit.answer(OPS.reportScanEvent, {
        bearer: device.token,
        body: scanEvent(device.installationId, kit.id('scan'), 'started', device.modelVersion),
        headers: { 'idempotency-key': kit.id('idem') },
      });
      if (answer.ok || answer.status < 400 || answer.status >= 500)
        throw new Divergence(answer.request, 'a refusal (4xx)', describeAnswer(answer));
      return `a second scan with the token: ${describeAnswer(answer)}`;
    },
  },
  {
    rule: 'DEV-7',
    title: 'with results delivery off, the result upload is refused',
    requests: 7,
    needs: ['attestation', 'scans'],
    async run(kit) {
      if (kit.emulator) {
        const { appId } = await kit.appIdentity();
        if ((await kit.emulator.control.app(appId)).results_delivery_enabled)
          throw new Divergence('the app', 'results delivery off (the default)', 'on: this probe needs it off');
      }
      const device = await enrolledDevice(kit, 'dev7');
      const scanId = kit.id('scan');
      await reportCompletedScan(kit, device, scanId);
      await kit.refusal(
        OPS.uploadScanResult,
        {
          bearer: device.token,
          params: { scan_id: scanId },
          body: { installation_id: device.installationId, result: { modelVersion: device.modelVersion, measurements: { bmi: 23.1 } } },
        },
        403,
        'results_delivery_disabled',
      );
      return '403 results_delivery_disabled';
    },
  },
];

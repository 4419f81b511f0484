import { setTimeout as sleepReal } from 'node:timers/promises';
import { secretKeyEnv } from '../contract/credentials.js';
import { deviceId } from './device-ids.js';
import { DeviceClient } from './client.js';
import { ScanRun } from './scan-run.js';
import { ensureModel, enroll, fetchModelKey, reportScan, startScan, uploadResult, type AppMemory, type ScanFlow } from './scan-steps.js';
import { SimulationError, type ScanSummary, type SimEvent, type SimulateOptions } from './simulate-events.js';

/**
 * The simulated SDK: plays one member's scans through the device routes exactly as the SDK
 * would, and EMITS what happens (steps, one summary per scan). It never prints; the command renders.
 */
export * from './simulate-events.js';

export async function simulate(options: SimulateOptions, emit: (event: SimEvent) => void): Promise<ScanSummary[]> {
  const sleep = options.sleep ?? ((ms: number) => sleepReal(ms).then(() => undefined));
  const env = secretKeyEnv(options.secretKey) ?? 'test';
  const memory: AppMemory = {
    enrollmentChecked: false,
    enrolledThisRun: false,
    announcedKnown: false,
    modelVersion: null,
    uploadsDisabled: false,
    installationId: options.installationId,
  };
  const summaries: ScanSummary[] = [];
  for (let index = 1; index <= options.count; index += 1) {
    // Stopped (Ctrl+C): the scans so far are what the caller reports.
    if (options.signal?.aborted) break;
    const summary: ScanSummary = {
      object: 'simulated_scan',
      index,
      host_user_ref: options.hostUserRef,
      env,
      installation_id: memory.installationId ?? '',
      scan_id: null,
      outcome: options.outcome,
      state: 'refused',
      occurred_at: null,
      billable: null,
      result: 'none',
      refusal: null,
      steps: [],
    };
    const scan = new ScanRun(summary, emit, sleep);
    const flow: ScanFlow = {
      options,
      env,
      installationId: memory.installationId ?? '',
      memory,
      scan,
      device: new DeviceClient(options.baseUrl, '', options.fetch),
    };
    let next: 'next' | 'stop';
    try {
      next = await scanOnce(flow);
    } catch (error) {
      if (error instanceof SimulationError) throw error;
      throw new SimulationError(scan.current, error, summary);
    }
    emit({ type: 'scan', summary });
    summaries.push(summary);
    if (next === 'stop') break;
  }
  return summaries;
}

/**
 * One scan, step by step: mint, enrollment (first scan of a fresh install), model, model key,
 * mesh fit, started (or offline), reported, results. A refusal ends the scan ('next'); a refused
 * enrollment ends the run ('stop'): without one no scan can run at all.
 */
async function scanOnce(flow: ScanFlow): Promise<'next' | 'stop'> {
  const { options, memory, scan, device } = flow;
  const minted = await scan.mint(options, flow.env, 'scan');
  device.token = minted.token;
  memory.installationId ??= deviceId('ins', 16, 'installation', minted.token);
  flow.installationId = scan.summary.installation_id = memory.installationId;
  if (!memory.enrollmentChecked) {
    memory.enrollmentChecked = true;
    // DEV-1: a fresh install (or a reinstall) enrolls before its first scan.
    if ((!options.installationId || options.reinstall) && !(await enroll(flow))) return 'stop';
  }
  const modelVersion = await ensureModel(flow);
  const key = await fetchModelKey(flow, modelVersion);
  if (key === 'stop') return 'stop';
  if (!key) return 'next';
  scan.record({ step: 'model_key', model_version: key.model_version });
  const fit = await scan.step('mesh_fit', () => device.meshFit({ installation_id: flow.installationId, model_version: modelVersion }));
  if (!fit) return 'next';
  scan.record({ step: 'mesh_fit', fit_id: fit.fit_id });

  const scanId = deviceId('scn', 16, 'scan', minted.token);
  scan.summary.scan_id = scanId;
  const occurredAt = await startScan(flow, scanId, modelVersion, minted.now);
  if (occurredAt === null) return 'next';
  const reported = await reportScan(flow, scanId, modelVersion, options.outcome, occurredAt, 'scan_reported');
  if (!reported) return 'next';
  const { scan: recorded, duplicate } = reported.body;
  Object.assign(scan.summary, { state: 'recorded', occurred_at: recorded.occurred_at, billable: recorded.billable });
  scan.record({
    step: 'scan_reported',
    scan_id: scanId,
    status: recorded.status,
    occurred_at: recorded.occurred_at ?? occurredAt,
    billable: recorded.billable,
    duplicate,
    replayed: reported.replayed,
  });
  if (options.duplicateReport) {
    const again = await reportScan(flow, scanId, modelVersion, options.outcome, occurredAt, 'duplicate_report');
    if (again)
      scan.record({ step: 'duplicate_report', scan_id: scanId, duplicate: again.body.duplicate, reports: again.body.scan.reports });
  }
  if (options.outcome === 'completed') await uploadResult(flow, scanId);
  return 'next';
}

import { formatDuration } from '../../../clock/duration.js';
import type { ScanSummary, SimStep } from '../../../sdk/simulate.js';
import { bold, dim, green, red, yellow } from '../../style.js';

const label = (text: string) => bold(text.padEnd(12));

/** One human line per step of the simulated SDK (the engine emits, this renders). */
export function renderStep(step: SimStep): string {
  switch (step.step) {
    case 'mint': {
      const scopes = step.scopes.length === 0 ? ' without scan.create' : '';
      const what = step.purpose === 'sync' ? 'a new session to sync the queued scan' : 'session';
      return `${label('minted')}${what} (${step.env} key)${scopes}, expires ${step.expires_at}`;
    }
    case 'enroll':
      if (step.skipped)
        return `${label('enrolled')}installation ${step.installation_id} already enrolled (enrollment survives app updates)`;
      return step.reenrolled
        ? `${label('re-enrolled')}installation ${step.installation_id} after a reinstall (enrollment #${step.enrollments}, ${step.status})`
        : `${label('enrolled')}installation ${step.installation_id} (stub attestation accepted)`;
    case 'model':
      return `${label('model')}${step.model_version} downloaded, ${step.size} bytes, sha256 ${step.sha256.slice(0, 12)}... ${step.verified ? 'verified' : 'MISMATCH'}`;
    case 'model_key':
      return `${label('model key')}${step.model_version}`;
    case 'mesh_fit':
      return `${label('mesh fit')}${step.fit_id}`;
    case 'scan_started':
      return `${label('started')}scan ${step.scan_id} at ${step.occurred_at}`;
    case 'offline':
      return `${label('offline')}scan ${step.scan_id} happened at ${step.occurred_at} (${formatDuration(step.late_ms)} ago), queued on the device`;
    case 'scan_reported': {
      const billing = step.billable
        ? green('billable: true')
        : `billable: false${step.status === 'completed' ? ' (test key)' : ` (${step.status})`}`;
      const extra = step.replayed ? dim(' (idempotent replay)') : step.duplicate ? dim(' (duplicate)') : '';
      return `${label('reported')}scan ${step.scan_id} ${step.status}, occurred_at ${step.occurred_at}, ${billing}${extra}`;
    }
    case 'duplicate_report':
      return `${label('duplicate')}scan ${step.scan_id} reported again: ${step.duplicate ? 'recorded once' : 'NOT deduplicated'} (reports: ${step.reports}), not charged again`;
    case 'result_upload':
      if (step.skipped) return `${label('result')}not uploaded: results delivery is off (the SDK stopped uploading for good)`;
      return step.duplicate
        ? `${label('result')}re-uploaded for ${step.scan_id}: the same result, one stored row, no second delivery`
        : `${label('result')}uploaded for ${step.scan_id} (stored)`;
    case 'retry':
      return yellow(`${label('retry')}${step.at} attempt ${step.attempt + 1} in ${step.wait_ms} ms (${step.reason})`);
    case 'refused':
      if (step.refusal.code === 'results_delivery_disabled') {
        return yellow(
          `${label('result')}not stored: ${step.refusal.status} ${step.refusal.code} (results delivery is off; the SDK stops uploading for good)`,
        );
      }
      return red(`${label('REFUSED')}${step.refusal.step}: ${step.refusal.status} ${step.refusal.code}: ${step.refusal.message}`);
  }
}

/** One plain line per scan (several scans off a terminal). */
export function renderScanLine(summary: ScanSummary, total: number): string {
  const parts = [
    `scan ${summary.index}/${total}`,
    summary.scan_id ?? '-',
    summary.state === 'recorded' ? summary.outcome : 'refused',
    summary.billable === null ? '' : `billable=${summary.billable}`,
    summary.result === 'none' ? '' : `result=${summary.result}`,
    summary.refusal ? `${summary.refusal.status} ${summary.refusal.code}` : '',
  ];
  return parts.filter(Boolean).join('  ');
}

export function renderTotals(summaries: ScanSummary[]): string {
  const recorded = summaries.filter((s) => s.state === 'recorded');
  const billable = recorded.filter((s) => s.billable).length;
  const refusals = new Map<string, number>();
  for (const s of summaries) if (s.refusal) refusals.set(s.refusal.code, (refusals.get(s.refusal.code) ?? 0) + 1);
  const refused = [...refusals].map(([code, n]) => `${n} ${code}`).join(', ');
  return `${summaries.length} scan${summaries.length === 1 ? '' : 's'}: ${recorded.length} recorded (${billable} billable)${refused ? `; refused: ${refused}` : ''}`;
}

import { median, prepareOutbox, removeDir, startServe, tempDir } from '../lib.js';

const post = async (url, json) => {
  const answer = await fetch(url, {
    method: 'POST',
    ...(json ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } : {}),
  });
  return { status: answer.status, body: await answer.json() };
};

/** Scans in the state: each one an event and a delivery, so 10^5 rows of state in all. */
const SCANS = 50_000;

/**
 * CHOICE-45: `state restore` of a checkpoint holding 10^5 rows (50,000 scans' events and their
 * settled deliveries, plus the fixtures), against what a suite did before checkpoints to get the
 * same state back: `state reset` then `state import` of its export. Both over HTTP to the same
 * serve, interleaved, in the same run.
 */
export default {
  id: 'checkpoint-restore',
  title: '`state restore` of 10^5 rows',
  baseline: '`state reset` + `state import` of the same state',
  target: { ratio: 'max', value: 0.1 },
  async run({ quick, runs: asked }) {
    const runs = asked ?? (quick ? 3 : 7);
    const dir = tempDir();
    let serve;
    try {
      // Deliveries to a closed port, settled before serve starts: the state does not move while it is measured.
      const outbox = await prepareOutbox(dir, { receiverUrl: 'http://127.0.0.1:9/hook', deliveries: SCANS });
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(outbox.dbPath);
      db.exec("UPDATE deliveries SET status = 'succeeded', attempts = 1, next_attempt_at = NULL, last_status = 200");
      db.close();
      serve = await startServe(['--rate-limit', '0', '--frozen-clock', '--fixtures', outbox.file], { dir });
      const base = `${serve.baseUrl}/_scanctl/state`;
      const exported = await fetch(`${base}?include_secrets=1`).then((r) => r.text());
      // The baseline first: once a checkpoint is taken, every write also notes its row (CHOICE-45), an import too.
      const reimportMs = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        const reset = await post(`${base}/reset`);
        const imported = await fetch(`${base}/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: exported });
        if (reset.status !== 200 || imported.status !== 200) throw new Error(`reset/import answered ${reset.status}/${imported.status}`);
        await imported.arrayBuffer();
        reimportMs.push(performance.now() - started);
      }
      const taken = await post(`${base}/checkpoints`, { name: 'bench' });
      if (taken.status !== 201) throw new Error(`checkpoint answered ${taken.status}`);
      const rows = taken.body.rows;
      const other = await post(`${base}/checkpoints`, { name: 'other' });
      if (other.status !== 201) throw new Error(`checkpoint answered ${other.status}`);
      const mint = (ref) =>
        fetch(`${serve.baseUrl}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${outbox.testSecret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ host_user_ref: ref }),
        }).then((r) => r.arrayBuffer());
      const timed = async (url) => {
        const started = performance.now();
        const restored = await post(url);
        if (restored.status !== 200) throw new Error(`restore answered ${restored.status}`);
        return performance.now() - started;
      };
      const changedMs = [];
      const fullMs = [];
      // The state matches the checkpoint last taken or restored: a restore of it copies back what was written since.
      let last = 'other';
      for (let i = 0; i < runs; i++) {
        // What a test leaves behind: ten sessions minted since the checkpoint.
        for (let n = 0; n < 10; n++) await mint(`member_${n}`);
        changedMs.push(await timed(`${base}/checkpoints/${last}/restore`));
        // The other checkpoint: every row is copied back.
        last = last === 'bench' ? 'other' : 'bench';
        fullMs.push(await timed(`${base}/checkpoints/${last}/restore`));
      }
      const baselineValue = median(reimportMs);
      return {
        note: `median of ${runs} runs each (the baseline's before the first checkpoint), over HTTP to one serve (--frozen-clock); each checkpoint holds ${rows} rows; goal: under 100 ms and at least 10x faster`,
        rows: [
          { label: 'the rows a test wrote (10 sessions)', value: median(changedMs), baselineValue, unit: 'ms' },
          { label: 'every row (not the checkpoint last taken or restored)', value: median(fullMs), baselineValue, unit: 'ms' },
        ],
      };
    } finally {
      await serve?.stop();
      removeDir(dir);
    }
  },
};

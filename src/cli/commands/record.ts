import { Option, type Command } from 'commander';
import { contextOf } from '../context.js';
import { httpUrl } from '../http-url.js';
import { wholeNumber } from '../parse-options.js';

/** The upstream timeout unless told: longer than any answer of the service should take, short enough that a hung upstream is seen. */
const DEFAULT_UPSTREAM_TIMEOUT_S = 30;

/** scanctl record: a recording proxy in front of the service; the cassette feeds `conform replay`. */
export function register(program: Command): void {
  program
    .command('record')
    .description('a proxy on 127.0.0.1 that forwards to --upstream and writes each exchange, redacted, to an NDJSON cassette')
    .addOption(new Option('--upstream <url>', 'the service (or an emulator) to forward to').argParser(httpUrl).makeOptionMandatory())
    .addOption(new Option('--port <n>', 'the port to listen on, 127.0.0.1 (0: any free one)').argParser(wholeNumber(0, 65_535)).default(0))
    .addOption(
      new Option(
        '--upstream-timeout <seconds>',
        'from a request to the last byte of its answer; past it the client gets a 504 (error body)',
      )
        .argParser(wholeNumber(1, 3_600))
        .default(DEFAULT_UPSTREAM_TIMEOUT_S),
    )
    .requiredOption(
      '--out <cassette>',
      'the cassette to write (NDJSON, mode 0600); secrets, tokens, signatures and member data are redacted',
    )
    .addHelpText(
      'after',
      '\nAn upstream that refuses, resets or closes mid-answer gets the client a 502, one slower than --upstream-timeout a 504, both in the error body and left out of the cassette; record keeps serving.\nStops on Ctrl+C or SIGTERM at once, whatever the upstream does (requests in flight are dropped, the cassette is closed whole). Example: scanctl record --upstream https://api.example.com --port 8080 --out service.ndjson',
    )
    .action(async (flags: { upstream: string; port: number; out: string; upstreamTimeout: number }, command: Command) => {
      const ctx = contextOf(command);
      const { Recorder } = await import('../../conform/record.js');
      let count = 0;
      const recorder = new Recorder({
        upstream: flags.upstream,
        port: flags.port,
        out: ctx.path(flags.out),
        upstreamTimeoutMs: flags.upstreamTimeout * 1000,
        onUpstreamFailure: (f) => ctx.io.stderr.write(`${f.method} ${f.path} ${f.status} (not recorded: ${f.reason})\n`),
        onExchange: (e) => {
          count += 1;
          if (!ctx.json) ctx.io.stderr.write(`${e.method} ${e.path} ${e.status}\n`);
        },
      });
      const url = await recorder.start();
      ctx.printLine(
        { object: 'recorder', url, upstream: flags.upstream, out: flags.out },
        `Recording ${url} -> ${flags.upstream} into ${flags.out}`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await recorder.close();
      ctx.printLine({ object: 'recorder_stopped', exchanges: count }, `Recorded ${count} exchanges into ${flags.out}`);
    });
}

import { Option, type Command } from 'commander';
import { contextOf } from '../context.js';
import { httpUrl } from '../http-url.js';
import { wholeNumber } from '../parse-options.js';

/** scanctl record: a recording proxy in front of the service; the cassette feeds `conform replay`. */
export function register(program: Command): void {
  program
    .command('record')
    .description('a proxy on 127.0.0.1 that forwards to --upstream and writes each exchange, redacted, to an NDJSON cassette')
    .addOption(new Option('--upstream <url>', 'the service (or an emulator) to forward to').argParser(httpUrl).makeOptionMandatory())
    .addOption(new Option('--port <n>', 'the port to listen on, 127.0.0.1 (0: any free one)').argParser(wholeNumber(0, 65_535)).default(0))
    .requiredOption(
      '--out <cassette>',
      'the cassette to write (NDJSON, mode 0600); secrets, tokens, signatures and member data are redacted',
    )
    .addHelpText(
      'after',
      '\nStops on Ctrl+C or SIGTERM. Example: scanctl record --upstream https://api.example.com --port 8080 --out service.ndjson',
    )
    .action(async (flags: { upstream: string; port: number; out: string }, command: Command) => {
      const ctx = contextOf(command);
      const { Recorder } = await import('../../conform/record.js');
      let count = 0;
      const recorder = new Recorder({
        upstream: flags.upstream,
        port: flags.port,
        out: ctx.path(flags.out),
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

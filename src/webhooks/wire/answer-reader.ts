/** What a receiver's answer turns into, in order: head, then body chunks, then end; or bad at any point. */
export interface AnswerEvents {
  /** The final answer's status line and headers were read (interim 1xx answers are skipped). */
  head(status: number): void;
  body(chunk: Buffer): void;
  /**
   * The answer is complete. `reusable`: the connection may carry the next request (HTTP/1.1 or a
   * keep-alive 1.0, no `Connection: close`, framed by length or chunks, nothing after it).
   * `keepAliveMs`: the receiver's `Keep-Alive: timeout=` hint, if it gave one.
   */
  end(reusable: boolean, keepAliveMs: number | null): void;
  /** Not an HTTP/1.x answer this reader can follow; the connection must be dropped. */
  bad(reason: string): void;
}

/** An answer's status line and headers together may not be larger (Node's http server allows 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4 * 1024;

type State = 'head' | 'length' | 'close' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'done' | 'bad';

/**
 * Reads one HTTP/1.1 answer to a POST as its bytes arrive (RFC 9112): interim 1xx answers are
 * skipped, the body is delimited as section 6.3 says (no body for 204 and 304; chunked when it is
 * the last transfer coding; else Content-Length; else until the connection closes). It keeps only
 * what framing needs: the body goes to `events` as it comes.
 */
export class AnswerReader {
  private state: State = 'head';
  private held: Buffer | null = null;
  private left = 0;
  private reusable = true;
  private keepAliveMs: number | null = null;
  private headed = false;

  constructor(private readonly events: AnswerEvents) {}

  /** Whether the final answer's head was read (an answer cut short after it still has a status). */
  get answered(): boolean {
    return this.headed;
  }

  /** Bytes from the connection. */
  push(chunk: Buffer): void {
    if (!this.reading()) return;
    const data = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = null;
    let at = 0;
    while (at < data.length && this.reading()) {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf('\r\n\r\n', at);
          if (end < 0) return this.hold(data, at, MAX_HEAD_BYTES, 'status line and headers larger than 64 KiB');
          if (end - at > MAX_HEAD_BYTES) return void this.fail('status line and headers larger than 64 KiB');
          const head = data.toString('latin1', at, end);
          at = end + 4;
          this.readHead(head);
          break;
        }
        case 'length':
        case 'chunk-data': {
          const n = Math.min(this.left, data.length - at);
          this.events.body(data.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) this.state = this.state === 'length' ? 'done' : 'chunk-end';
          break;
        }
        case 'close':
          this.events.body(at === 0 ? data : data.subarray(at));
          at = data.length;
          break;
        case 'chunk-size': {
          const eol = data.indexOf('\r\n', at);
          if (eol < 0) return this.hold(data, at, MAX_LINE_BYTES, 'a chunk size line longer than 4 KiB');
          const size = data.toString('latin1', at, eol).split(';', 1)[0]!.trim();
          at = eol + 2;
          if (!/^[0-9a-fA-F]{1,12}$/.test(size)) return void this.fail(`an invalid chunk size ${JSON.stringify(size.slice(0, 20))}`);
          this.left = parseInt(size, 16);
          this.state = this.left === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-end': {
          if (data.length - at < 2) return this.hold(data, at, 2, '');
          if (data[at] !== 13 || data[at + 1] !== 10) return void this.fail('a chunk not followed by CRLF');
          at += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const eol = data.indexOf('\r\n', at);
          if (eol < 0) return this.hold(data, at, MAX_LINE_BYTES, 'a trailer line longer than 4 KiB');
          if (eol === at) this.state = 'done';
          at = eol + 2;
          break;
        }
      }
    }
    if ((this.state as State) === 'done') {
      // Bytes after the answer answer no request: the connection is not used again.
      this.finish(this.reusable && at === data.length);
    }
  }

  private reading(): boolean {
    return this.state !== 'done' && this.state !== 'bad';
  }

  /** The connection ended: the end of an answer delimited by it; otherwise the answer (if any) was cut short. */
  ended(): void {
    if (this.state === 'close') this.finish(false);
  }

  private hold(data: Buffer, at: number, limit: number, tooLong: string): void {
    if (data.length - at > limit) return void this.fail(tooLong);
    this.held = at === 0 ? data : Buffer.from(data.subarray(at));
  }

  private finish(reusable: boolean): void {
    this.state = 'done';
    this.events.end(reusable, this.keepAliveMs);
  }

  private fail(reason: string): void {
    this.state = 'bad';
    this.held = null;
    this.events.bad(reason);
  }

  private readHead(head: string): void {
    const lines = head.split('\r\n');
    const status = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |$)/.exec(lines[0]!);
    if (!status) return this.fail(`not an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 60))}`);
    const code = Number(status[2]);
    if (code < 200) {
      // 101 would hand the connection to another protocol, which a webhook POST never asks for.
      if (code === 101) this.fail('101 Switching Protocols to a request that asked for no upgrade');
      return; // an interim answer (100 Continue, 102, 103): the final one follows
    }
    let length: number | null = null;
    let transfer: string | null = null;
    let close = status[1] === '0';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) {
        if (line.startsWith(' ') || line.startsWith('\t')) continue; // obsolete line folding of a value
        return this.fail(`a header line without a name: ${JSON.stringify(line.slice(0, 60))}`);
      }
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== null && Number(value) !== length)) {
          return this.fail(`an invalid Content-Length ${JSON.stringify(value.slice(0, 20))}`);
        }
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        transfer = transfer === null ? value : `${transfer}, ${value}`;
      } else if (name === 'connection') {
        const tokens = value.toLowerCase().split(',').map((t) => t.trim());
        if (tokens.includes('close')) close = true;
        else if (tokens.includes('keep-alive')) close = false;
      } else if (name === 'keep-alive') {
        const timeout = /(?:^|[\s,])timeout=(\d{1,6})/i.exec(value);
        if (timeout) this.keepAliveMs = Number(timeout[1]) * 1000;
      }
    }
    this.reusable = !close;
    this.headed = true;
    this.events.head(code);
    if (code === 204 || code === 304) {
      this.state = 'done';
    } else if (transfer !== null) {
      // Chunked only as the last coding; with Content-Length beside it, the connection is not trusted again.
      const chunked = transfer.toLowerCase().split(',').at(-1)!.trim() === 'chunked';
      if (length !== null) this.reusable = false;
      this.state = chunked ? 'chunk-size' : 'close';
      if (!chunked) this.reusable = false;
    } else if (length !== null) {
      this.left = length;
      this.state = length === 0 ? 'done' : 'length';
    } else {
      this.state = 'close';
      this.reusable = false;
    }
  }
}

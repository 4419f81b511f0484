import { closeSync, createReadStream, openSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';

/** Up to this many bytes of an export are held in memory; the rest goes to a temporary file. */
const EXPORT_MEMORY_BYTES = 16 * 1024 * 1024;

/**
 * Produces the whole export before its 200 is sent, so that a read that meets damage (or any
 * other failure) is answered with the error body instead of a 200 cut short. Memory stays
 * bounded: past EXPORT_MEMORY_BYTES the text goes to an unlinked temporary file, read back as the
 * client takes it (a full disk there is a storage_full answer, like any other write).
 */
export async function producedInFull(
  stream: ReadableStream<Uint8Array>,
  options: { memoryBytes?: number; dir?: string } = {},
): Promise<ReadableStream<Uint8Array>> {
  const limit = options.memoryBytes ?? EXPORT_MEMORY_BYTES;
  const chunks: Uint8Array[] = [];
  let held = 0;
  let fd: number | null = null;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (fd === null && held + value.byteLength <= limit) {
        chunks.push(value);
        held += value.byteLength;
        continue;
      }
      if (fd === null) {
        const path = join(options.dir ?? tmpdir(), `scanctl-export-${randomBytes(6).toString('hex')}.json`);
        fd = openSync(path, 'wx+', 0o600);
        // Unlinked at once: nothing is left behind, whatever happens to the process.
        unlinkSync(path);
        for (const chunk of chunks) writeAll(fd, chunk);
        chunks.length = 0;
      }
      writeAll(fd, value);
    }
  } catch (error) {
    if (fd !== null) closeSync(fd);
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  if (fd === null) {
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
  }
  return Readable.toWeb(createReadStream('', { fd, start: 0, autoClose: true })) as ReadableStream<Uint8Array>;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
}

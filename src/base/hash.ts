/**
 * SHA-256, for fingerprints and render's content hashes. node:crypto loads on first use, so a
 * command that hashes nothing (most runs) does not pay for loading it at start-up.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';

let crypto: typeof Crypto | undefined;

/** A new SHA-256 hash (update it, then digest('hex')). */
export function sha256(): Crypto.Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256');
}

// Files are hashed through this one buffer, never read whole into memory.
let buffer: Buffer | undefined;
const chunk = () => (buffer ??= Buffer.allocUnsafe(1 << 20));

/** Feed `len` bytes of open file `fd` from `pos` into `h` (fewer if the file ends first); how many it fed. */
function feed(h: Crypto.Hash, fd: number, pos: number, len: number): number {
  const buf = chunk();
  let done = 0;
  while (done < len) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, len - done), pos + done);
    if (n === 0) break;
    h.update(buf.subarray(0, n));
    done += n;
  }
  return done;
}

/** Feed every byte of the file at `path` into `h`, through the one buffer. */
export function feedFile(h: Crypto.Hash, path: string): void {
  const fd = openSync(path, 'r');
  try {
    feed(h, fd, 0, Number.MAX_SAFE_INTEGER);
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 (hex) of every byte of open file `fd`, read to its end. */
export function hashFile(fd: number): string {
  const h = sha256();
  feed(h, fd, 0, Number.MAX_SAFE_INTEGER);
  return h.digest('hex');
}

/**
 * SHA-256 (hex) of the first and the last `block` bytes of open file `fd`, `size` bytes long: of
 * the whole file (the same digest as hashFile) when it is no longer than two blocks.
 */
export function hashEdges(fd: number, size: number, block: number): string {
  const h = sha256();
  if (size <= 2 * block) feed(h, fd, 0, size);
  else {
    feed(h, fd, 0, block);
    feed(h, fd, size - block, block);
  }
  return h.digest('hex');
}

/** Let the event loop run: what a long hash does every few reads. */
const yieldNow = () => new Promise<void>((done) => setImmediate(done));

/**
 * hashFile and hashEdges of open file `fd`, `size` bytes long, pausing for the event loop every
 * 8 MiB, so that it runs beside other work on this thread: between the callbacks of DuckDB's
 * statements, say, which run on threads of their own. The reads stay synchronous, through the one
 * buffer: read on the thread pool, the same bytes took twice the CPU (bench/README.md). `signal`
 * stops it.
 */
export async function hashFileBeside(
  fd: number,
  size: number,
  block: number,
  signal?: AbortSignal,
): Promise<{ content: string; edges: string }> {
  const h = sha256();
  const step = 8 << 20;
  for (let pos = 0; ; pos += step) {
    await yieldNow();
    signal?.throwIfAborted();
    if (feed(h, fd, pos, step) < step) break;
  }
  const content = h.digest('hex');
  return { content, edges: size <= 2 * block ? content : hashEdges(fd, size, block) };
}

const CR = Buffer.from('\r');

/**
 * SHA-256 (hex) of the file at `path` read with each CRLF as LF (git's autocrlf), through the one buffer:
 * a chart's file of a gigabyte had been read whole into a string, past what a string may hold.
 */
export function hashFileLf(path: string): string {
  const h = sha256();
  const buf = chunk();
  const fd = openSync(path, 'r');
  try {
    // A CR that ends a read waits for the next byte: before an LF it is dropped.
    let held = false;
    for (let pos = 0, n = readSync(fd, buf, 0, buf.length, 0); n > 0; pos += n, n = readSync(fd, buf, 0, buf.length, pos)) {
      let part = buf.subarray(0, n);
      if (held && part[0] !== 0x0a) h.update(CR);
      held = part[n - 1] === 0x0d;
      if (held) part = part.subarray(0, n - 1);
      let from = 0;
      for (let i = part.indexOf('\r\n'); i !== -1; i = part.indexOf('\r\n', from)) {
        h.update(part.subarray(from, i));
        from = i + 1;
      }
      h.update(part.subarray(from));
    }
    if (held) h.update(CR);
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

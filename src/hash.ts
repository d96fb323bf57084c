/**
 * SHA-256, for fingerprints and render's content hashes. node:crypto loads on first use: it takes
 * ~8 ms to load, which a command that hashes nothing (most runs) need not pay at start-up.
 */
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';

let crypto: typeof Crypto | undefined;

/** A new SHA-256 hash (update it, then digest('hex')). */
export function sha256(): Crypto.Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256');
}

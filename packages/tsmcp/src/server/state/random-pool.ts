/**
 * Public random values (GCM nonces, principal salts) drawn from `node:crypto`'s CSPRNG in 4 KiB
 * batches: one `randomFillSync` per batch instead of one `randomBytes` call per seal, which is most
 * of the cost of a small seal. Every byte is handed out once; nothing here is secret (nonces and
 * salts travel in the token).
 */
import { randomBytes, randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/** `size` fresh CSPRNG bytes, copied out of the pool (never shared with a later caller). */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES / 4) return randomBytes(size);
  const bytes = Buffer.allocUnsafe(size);
  fillRandom(bytes);
  return bytes;
}

/** Fills `target` with fresh CSPRNG bytes from the pool (each pooled byte is handed out once). */
export function fillRandom(target: Uint8Array): void {
  const size = target.length;
  if (size > POOL_BYTES / 4) {
    randomFillSync(target);
    return;
  }
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  pool.copy(target, 0, offset, offset + size);
  offset += size;
}

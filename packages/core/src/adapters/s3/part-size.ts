/**
 * Part size: 8 MiB (S3's smallest is 5 MiB). Three part buffers keep the copier's memory at about
 * 25 MB, and each part is one S3 request: with 5 MiB parts the SDK's work per request (about 1.6 ms
 * of CPU) cost 0.33 CPU-s per GiB, and S3 bills requests. A larger announced object gets the
 * smallest whole-MiB size that fits in MAX_PARTS parts.
 */
export const PART_SIZE = 8 * 1024 * 1024;
/** S3's limit on parts in one upload (8 MiB parts: 78.1 GiB). */
export const MAX_PARTS = 10_000;

/** The part size for an object of `bytes` (unknown: PART_SIZE; such a body may reach 78.1 GiB). */
export function partSizeFor(bytes: number | undefined): number {
  if (bytes === undefined || bytes <= PART_SIZE * MAX_PARTS) return PART_SIZE;
  const MiB = 1024 * 1024;
  return Math.ceil(bytes / MAX_PARTS / MiB) * MiB;
}

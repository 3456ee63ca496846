/** Counts and hashes bytes as they pass, and fails when the count is not the announced one. */
import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { TransientError } from "../../domain/pipeline/step-errors.ts";

/** sha256 and byte count of chunks fed in order; `update` and `finish` throw download_truncated on a wrong count. */
export class ByteDigest {
  bytes = 0;
  readonly #hash = createHash("sha256");
  readonly #expected: number | undefined;
  #sha256: string | undefined;

  constructor(expectedBytes?: number) {
    this.#expected = expectedBytes;
  }

  update(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.#hash.update(chunk);
    if (this.#expected !== undefined && this.bytes > this.#expected)
      throw truncated(this.bytes, this.#expected, "more");
  }

  /** The source ended: checks the count and seals the hash. */
  finish(): void {
    if (this.#expected !== undefined && this.bytes !== this.#expected)
      throw truncated(this.bytes, this.#expected, "fewer");
    this.#sha256 = this.#hash.digest("hex");
  }

  /** Hex sha256 of everything fed; only after a clean finish. */
  get sha256(): string {
    if (this.#sha256 === undefined) throw new Error("ByteDigest: the source has not ended cleanly");
    return this.#sha256;
  }
}

/** ByteDigest as a pass-through stream: fails the stream on a wrong count. */
export class DigestStream extends Transform {
  readonly #digest: ByteDigest;

  constructor(expectedBytes?: number) {
    super();
    this.#digest = new ByteDigest(expectedBytes);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.#digest.update(chunk);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, chunk);
  }

  // Erroring here, before the last chunk is released, keeps an uploader from completing the object.
  override _flush(done: TransformCallback): void {
    try {
      this.#digest.finish();
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  }

  get bytes(): number {
    return this.#digest.bytes;
  }

  /** Hex sha256 of everything that passed; only after the stream ended cleanly. */
  get sha256(): string {
    return this.#digest.sha256;
  }
}

function truncated(got: number, expected: number, which: "more" | "fewer"): TransientError {
  return new TransientError(
    "download_truncated",
    `Got ${which} bytes than announced: ${got} of ${expected}.`,
    {
      details: { bytes: got, expectedBytes: expected },
    },
  );
}

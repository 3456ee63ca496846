/** Counts and hashes bytes as they stream past, and fails the stream when the count is wrong. */
import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { TransientError } from "../pipeline/errors.ts";

export class DigestStream extends Transform {
  bytes = 0;
  readonly #hash = createHash("sha256");
  readonly #expected: number | undefined;
  #sha256: string | undefined;

  constructor(expectedBytes?: number) {
    super();
    this.#expected = expectedBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.#hash.update(chunk);
    if (this.#expected !== undefined && this.bytes > this.#expected) {
      done(truncated(this.bytes, this.#expected, "more"));
      return;
    }
    done(null, chunk);
  }

  // Erroring here, before the last chunk is released, keeps an uploader from completing the object.
  override _flush(done: TransformCallback): void {
    if (this.#expected !== undefined && this.bytes !== this.#expected) {
      done(truncated(this.bytes, this.#expected, "fewer"));
      return;
    }
    this.#sha256 = this.#hash.digest("hex");
    done();
  }

  /** Hex sha256 of everything that passed; only after the stream ended cleanly. */
  get sha256(): string {
    if (this.#sha256 === undefined) throw new Error("DigestStream: the stream has not ended cleanly");
    return this.#sha256;
  }
}

function truncated(got: number, expected: number, which: "more" | "fewer"): TransientError {
  return new TransientError("download_truncated", `Got ${which} bytes than announced: ${got} of ${expected}.`, {
    details: { bytes: got, expectedBytes: expected },
  });
}

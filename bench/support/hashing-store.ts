/** A store that takes the body as S3 would (every byte read and hashed) and keeps nothing. */
import { createHash } from "node:crypto";
import type { copyUrlToS3 } from "@reelay/core/usecases";

export const hashingStore = {
  bucket: "bench",
  async uploadStream(
    key: string,
    body: AsyncIterable<Uint8Array>,
    options: { contentType: string },
  ) {
    const hash = createHash("sha256");
    let bytes = 0;
    for await (const chunk of body) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    return {
      bucket: "bench",
      key,
      bytes,
      sha256: hash.digest("hex"),
      contentType: options.contentType,
    };
  },
} as unknown as Parameters<typeof copyUrlToS3>[2];

/**
 * Two completes of one pending upload at once, over s3rver, with the interleaving forced: both
 * check the staged bytes, one copies them into place and removes them, and only then does the
 * other's copy run (and find no bytes to copy). Both answer the one upload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ObjectStore } from "../../../src/adapters/s3/object-store.ts";
import { stagedUploadKey } from "../../../src/domain/uploads/upload.ts";
import type { ObjectStorePort } from "../../../src/usecases/ports.ts";
import {
  completeUpload,
  createPendingUpload,
} from "../../../src/usecases/uploads/pending-uploads.ts";
import { solidPng } from "../../../../simulator/src/png.ts";
import { type LocalAws, startLocalAws } from "../../support/local-aws.ts";

let aws: LocalAws;
let objects: ObjectStorePort;
const now = () => new Date();

beforeAll(async () => {
  aws = await startLocalAws();
  objects = new ObjectStore(aws.s3, aws.bucket);
});
afterAll(() => aws?.stop());

describe("completeUpload", () => {
  it("a complete whose copy runs after the other complete made the upload answers that upload", async () => {
    const png = solidPng("complete-race");
    const { upload } = await createPendingUpload(
      { objects, now, retentionDays: 7 },
      { project: "p1", contentType: "image/png", size: png.length },
    );
    await objects.put(stagedUploadKey(upload.id), png, { contentType: "image/png" });

    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let copyReached = () => {};
    const reached = new Promise<void>((resolve) => {
      copyReached = resolve;
    });
    // The first complete's copy waits until the second complete has answered.
    const slow: ObjectStorePort = {
      ...objects,
      head: (key) => objects.head(key),
      getStream: (key) => objects.getStream(key),
      delete: (key) => objects.delete(key),
      copy: async (from, to, options) => {
        copyReached();
        await held;
        return objects.copy(from, to, options);
      },
    };
    const first = completeUpload({ objects: slow, now }, upload.id, "p1");
    await reached;
    const second = await completeUpload({ objects, now }, upload.id, "p1");
    release();
    expect(await first).toEqual(second);
    expect(second).toMatchObject({ id: upload.id, project: "p1", contentType: "image/png" });
    expect(await objects.head(stagedUploadKey(upload.id))).toBeUndefined();
  });
});

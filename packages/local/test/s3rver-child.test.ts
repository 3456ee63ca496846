/**
 * The local stack runs s3rver in a child process of its own (s3InChild). A stack killed with
 * SIGKILL (no cleanup runs) must take that child with it; the next start on the same data dir
 * serves the objects stored before the kill; notifications still reach the stack (the drops); a
 * taken S3 port is a refusal the stack answers with another port, not a crash.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { expect, it } from "vitest";
import { startStandins } from "../src/aws-standins.ts";
import { answers, goneWithin10s, standinsKilled } from "./fixtures/killed-standins.ts";

it("a SIGKILLed stack's s3rver child exits with it, and the next start serves the objects stored before the kill", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-s3rver-child-"));
  try {
    const { s3Endpoint } = await standinsKilled(dataDir, ["s3-child"], async ({ s3Endpoint }) => {
      expect(await answers(s3Endpoint)).toBe(true);
    });
    expect(await goneWithin10s(s3Endpoint)).toBe(true);

    const standins = await startStandins({ dataDir, s3Port: 0, s3InChild: true });
    try {
      const read = await standins.s3.send(
        new GetObjectCommand({ Bucket: standins.bucket, Key: "before-the-kill.txt" }),
      );
      expect(await read.Body?.transformToString()).toBe("stored");
    } finally {
      await standins.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);

it("s3rver's notifications from the child reach the stack's listeners, and close ends the child", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-s3rver-child-"));
  try {
    const standins = await startStandins({ dataDir, s3Port: 0, s3InChild: true });
    const keys: string[] = [];
    const seen = new Promise<void>((resolve) =>
      standins.s3rver.on("event", (event) => {
        keys.push(...event.Records.map((record) => `${record.eventName} ${record.s3.object.key}`));
        resolve();
      }),
    );
    await standins.s3.send(
      new PutObjectCommand({ Bucket: standins.bucket, Key: "inbox/a.jsonl", Body: "{}" }),
    );
    await seen;
    expect(keys).toEqual(["ObjectCreated:Put inbox/a.jsonl"]);
    await standins.close();
    expect(await answers(standins.s3Endpoint)).toBe(false);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);

it("an S3 port another program holds: the child says EADDRINUSE (no crash) and s3rver takes a free port", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelay-s3rver-child-"));
  const other = createServer();
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const taken = (other.address() as AddressInfo).port;
  try {
    const standins = await startStandins({ dataDir, s3Port: taken, s3InChild: true });
    try {
      expect(standins.s3Endpoint).not.toBe(`http://127.0.0.1:${taken}`);
      expect(await answers(standins.s3Endpoint)).toBe(true);
    } finally {
      await standins.close();
    }
  } finally {
    other.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { afterEach, describe, expect, it } from "vitest";
import { EventBridgeSink } from "../../../src/adapters/events/eventbridge.ts";
import { JsonlFileSink } from "../../../src/adapters/events/jsonl-events.ts";
import { buildTerminalEvent, type ReelayEvent } from "../../../src/domain/events/types.ts";
import type { Job } from "../../../src/domain/jobs/types.ts";

const succeeded: Job = {
  id: "vidtsk_01JD0000000000000000000000",
  kind: "video",
  status: "succeeded",
  model: "gamma-3.1",
  mode: "text",
  request: { model: "gamma-3.1", prompt: "a boat" },
  warnings: [],
  source: { type: "api" },
  idempotencyKey: "vidtsk_01JD0000000000000000000000",
  upstreamTaskId: "vidtsk_up1",
  attempts: 1,
  polls: 4,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:01:30.000Z",
  submittedAt: "2026-01-01T00:00:01.000Z",
  upstreamDoneAt: "2026-01-01T00:01:00.000Z",
  finishedAt: "2026-01-01T00:01:30.000Z",
  outputs: [
    {
      bucket: "b",
      key: "outputs/x/video.mp4",
      bytes: 10,
      sha256: "ab",
      contentType: "video/mp4",
      sourceUrlHost: "up.example",
    },
  ],
  history: [],
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("buildTerminalEvent", () => {
  it("a succeeded job gives Generation Succeeded with its output, timings and no error", () => {
    const event = buildTerminalEvent(succeeded);
    expect(event.source).toBe("reelay");
    expect(event["detail-type"]).toBe("Generation Succeeded");
    expect(event.detail.output).toEqual({
      bucket: "b",
      key: "outputs/x/video.mp4",
      bytes: 10,
      sha256: "ab",
      contentType: "video/mp4",
    });
    expect(event.detail.outputs).toHaveLength(1);
    expect(event.detail.error).toBeNull();
    expect(event.detail.timings.totalMs).toBe(90_000);
    expect(event.detail.upstreamTaskId).toBe("vidtsk_up1");
  });

  it("a failed job gives Generation Failed with its error and no output", () => {
    const event = buildTerminalEvent({
      ...succeeded,
      status: "failed",
      error: { code: "timeout", message: "late" },
    });
    expect(event["detail-type"]).toBe("Generation Failed");
    expect(event.detail.output).toBeNull();
    expect(event.detail.outputs).toEqual([]);
    expect(event.detail.error).toEqual({
      code: "timeout",
      message: "late",
      class: "timeout",
      retryable: true,
    });
  });

  it("a cancelled job gives Generation Cancelled; a running job has no terminal event", () => {
    expect(buildTerminalEvent({ ...succeeded, status: "cancelled" })["detail-type"]).toBe(
      "Generation Cancelled",
    );
    expect(() => buildTerminalEvent({ ...succeeded, status: "running" })).toThrow(
      expect.objectContaining({ code: "job_not_terminal" }),
    );
  });
});

describe("JsonlFileSink", () => {
  it("appends one JSON line per event (creating the folder) and tells subscribers until they unsubscribe", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-events-"));
    dirs.push(dir);
    const sink = new JsonlFileSink(join(dir, "nested", "events.jsonl"));
    const heard: ReelayEvent[] = [];
    const stop = sink.subscribe((e) => heard.push(e));
    const first = buildTerminalEvent(succeeded);
    await sink.emit(first);
    stop();
    await sink.emit(buildTerminalEvent({ ...succeeded, id: "vidtsk_other", status: "failed" }));
    const lines = (await readFile(sink.path, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(Object.keys(JSON.parse(lines[0] ?? "{}"))).toEqual([
      "id",
      "time",
      "source",
      "detail-type",
      "detail",
    ]);
    expect(heard).toEqual([first]);
    expect((await sink.readAll()).map((e) => e["detail-type"])).toEqual([
      "Generation Succeeded",
      "Generation Failed",
    ]);
  });

  it("a subscriber that throws does not fail the emit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "reelay-events-"));
    dirs.push(dir);
    const sink = new JsonlFileSink(join(dir, "events.jsonl"));
    sink.subscribe(() => {
      throw new Error("subscriber bug");
    });
    await expect(sink.emit(buildTerminalEvent(succeeded))).resolves.toBeUndefined();
    expect(await sink.readAll()).toHaveLength(1);
  });
});

// EventBridge has no local stand-in (neither dynalite nor s3rver covers it), so this one test uses
// a fake client object that records the command it is sent and answers like PutEvents does.
describe("EventBridgeSink (fake client: there is no local EventBridge)", () => {
  function fakeClient(answer: {
    FailedEntryCount: number;
    Entries: { ErrorCode?: string; ErrorMessage?: string }[];
  }) {
    const sent: PutEventsCommand[] = [];
    const send = async (command: PutEventsCommand) => {
      sent.push(command);
      return answer;
    };
    return { sent, send };
  }

  it("puts one entry on the named bus with source, detail-type and the JSON detail", async () => {
    const client = fakeClient({ FailedEntryCount: 0, Entries: [{}] });
    await new EventBridgeSink(client as never, "reelay").emit(buildTerminalEvent(succeeded));
    const entry = client.sent[0]?.input.Entries?.[0];
    expect(entry).toMatchObject({
      EventBusName: "reelay",
      Source: "reelay",
      DetailType: "Generation Succeeded",
    });
    expect(JSON.parse(entry?.Detail ?? "{}").jobId).toBe(succeeded.id);
  });

  it("a refused entry is a ReelayTransientError event_emit_failed", async () => {
    const client = fakeClient({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: "InternalFailure", ErrorMessage: "try again" }],
    });
    await expect(
      new EventBridgeSink(client as never, "reelay").emit(buildTerminalEvent(succeeded)),
    ).rejects.toMatchObject({
      name: "ReelayTransientError",
      code: "event_emit_failed",
    });
  });
});

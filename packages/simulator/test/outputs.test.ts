import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { VIDEO_FIXTURE } from "../src/index.ts";
import { fakeClock, finishedVideoUrl, sim } from "./helpers.ts";

async function sha256OfStream(res: Response): Promise<{ bytes: number; sha: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of res.body!) {
    hash.update(chunk as Uint8Array);
    bytes += (chunk as Uint8Array).byteLength;
  }
  return { bytes, sha: hash.digest("hex") };
}

describe("outputs", () => {
  it("the MP4 fixture starts with an ftyp box and is small", () => {
    expect(VIDEO_FIXTURE.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(VIDEO_FIXTURE.length).toBeLessThan(60_000);
  });

  it("by default the download is the fixture itself, with Content-Length and the advertised sha256", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const { id, url } = await finishedVideoUrl(s, clock);
    const res = await fetch(url);
    expect(res.headers.get("content-length")).toBe(String(VIDEO_FIXTURE.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(VIDEO_FIXTURE)).toBe(true);
    expect(s.task(id)?.outputSha256).toBe(createHash("sha256").update(VIDEO_FIXTURE).digest("hex"));
  });

  it("a padded output has exactly outputBytes bytes, ends in a free box, and matches outputSha256", async () => {
    const clock = fakeClock();
    const size = 3 * 1024 * 1024 + 17;
    const s = await sim({ now: clock.now, outputBytes: size });
    const { id, url } = await finishedVideoUrl(s, clock);
    const res = await fetch(url);
    expect(res.headers.get("content-length")).toBe(String(size));
    const got = await sha256OfStream(res);
    expect(got.bytes).toBe(size);
    expect(got.sha).toBe(s.task(id)?.outputSha256);
    expect(s.task(id)?.outputBytes).toBe(size);
  });

  it("the padding is one MP4 free box right after the fixture", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, outputBytes: VIDEO_FIXTURE.length + 1000 });
    const { url } = await finishedVideoUrl(s, clock);
    const buf = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(buf.readUInt32BE(VIDEO_FIXTURE.length)).toBe(1000);
    expect(
      buf.subarray(VIDEO_FIXTURE.length + 4, VIDEO_FIXTURE.length + 8).toString("latin1"),
    ).toBe("free");
  });

  it("two tasks of the same size have different bytes and different sha256", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, outputBytes: 100_000 });
    const a = await finishedVideoUrl(s, clock);
    const b = await finishedVideoUrl(s, clock);
    expect(s.task(a.id)?.outputSha256).not.toBe(s.task(b.id)?.outputSha256);
  });

  it("a URL past urlTtlMs after success answers 403", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, urlTtlMs: 60_000 });
    const { url } = await finishedVideoUrl(s, clock);
    expect((await fetch(url)).status).toBe(200);
    clock.advance(1_000_000);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "url_expired" } });
  });

  it("a URL with a tampered signature or expiry answers 403", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const { url } = await finishedVideoUrl(s, clock);
    const bad = url.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === "0" ? "1" : "0"}`);
    expect((await fetch(bad)).status).toBe(403);
    const later = url.replace(/expires=(\d+)/, (_, n: string) => `expires=${Number(n) + 1}`);
    expect((await fetch(later)).status).toBe(403);
  });

  it("downloads need no Authorization header and are counted per task", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const { id, url } = await finishedVideoUrl(s, clock);
    await (await fetch(url)).arrayBuffer();
    await (await fetch(url)).arrayBuffer();
    expect(s.counters().downloads).toBe(2);
    expect(s.counters().downloadsByTask).toEqual({ [id]: 2 });
  });

  it("a client that aborts a large download mid-stream leaves the server answering", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now, outputBytes: 256 * 1024 * 1024 });
    const { url } = await finishedVideoUrl(s, clock);
    const abort = new AbortController();
    const res = await fetch(url, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await expect(reader.read()).rejects.toThrow();
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(256 * 1024 * 1024));
  });
});

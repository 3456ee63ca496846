/**
 * A child service's protocol (children/service.ts): its first stdout line says it is ready, or why
 * it cannot start; what it writes to stderr reaches the stack's log line by line.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { spawnService } from "../src/children/service.ts";

const CHILD = fileURLToPath(new URL("./fixtures/talking-child.mjs", import.meta.url));

describe("spawnService", () => {
  it("resolves with the ready line and passes the child's stderr on, a line at a time", async () => {
    const lines: string[] = [];
    const child = await spawnService<{ port: number }>(CHILD, ["ready"], [], (line) =>
      lines.push(line),
    );
    expect(child.ready).toEqual({ port: 1 });
    await child.stop();
    expect(await child.ended).toBeUndefined();
    // Written before the ready line; stderr and stdout are separate pipes, so it may land after.
    await vi.waitFor(() => expect(lines).toEqual(["a warning from the child"]));
  });

  it("rejects with the refusal's code and message when the first line is an error", async () => {
    await expect(spawnService(CHILD, ["refuse"], [], () => undefined)).rejects.toMatchObject({
      code: "EADDRINUSE",
      message: "taken",
    });
  });
});

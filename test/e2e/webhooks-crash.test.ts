/**
 * Acceptance: deliveries survive a SIGKILL of the local stack. With REELAY_WEBHOOK_SCHEDULE
 * compressed to 0,1,2,1,1,1 s, a receiver answering 503 to the first five attempts of each event
 * sees two attempts, the stack is killed, the next attempt falls due while it is down, and the
 * restarted stack carries on: the receiver gets the event exactly once (on the sixth attempt), under
 * one webhook-id, and the log shows all six attempts. The stack runs as a child process
 * (`reelay up`); the receiver runs here, so its record outlives the kill.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import {
  startReceiver,
  type Receiver,
} from "../../packages/core/test/usecases/webhooks/receiver.ts";
import { killChildren, startReady } from "./support/child-stack.ts";
import {
  eventsIn,
  freePort,
  getJson,
  postJson,
  tempDir,
  waitFor,
  waitForTerminalJob,
} from "./support/stack.ts";
import { attemptsPerEvent, failFirst } from "./support/webhooks.ts";

const apiKey = `e2e_${randomBytes(12).toString("hex")}`;
/**
 * The waits before each attempt: 2 s before the third, the one the kill falls in (longer than
 * seeing the second attempt and killing the stack takes), 1 s (the sweep's own pace) elsewhere.
 */
const SCHEDULE = "0,1,2,1,1,1";
/** Past the last wait of the schedule (+10 % jitter) and one sweep: anything still owed is sent by then. */
const PAST_ONE_MORE_WAIT_MS = 2_500;
/** Caps, not waits: generous for a loaded 2-core machine. */
const WAIT_CAP_MS = 120_000;
const secret = `whsec_${randomBytes(24).toString("base64")}`;
let receiver: Receiver | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  killChildren();
  await receiver?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

async function deliveriesOf(url: string, eventId: string): Promise<any[]> {
  const { body } = await getJson(`${url}/v1/webhooks/deliveries?event=${eventId}`, apiKey);
  return body.data;
}

describe("webhook deliveries across a SIGKILL of the local stack", () => {
  it("503 for five attempts with a SIGKILL after the second: the event arrives exactly once on the sixth, one webhook-id, six attempts in the log", async () => {
    receiver = await startReceiver(failFirst(5));
    dataDir = await tempDir("webhooks-crash");
    const options = {
      dataDir,
      args: ["--sim-time-scale", "0.05"],
      env: {
        REELAY_API_KEY: apiKey,
        REELAY_WEBHOOK_SCHEDULE: SCHEDULE,
        REELAY_WEBHOOKS: JSON.stringify([{ url: receiver.url, secret }]),
      },
    };
    const first = await startReady(options, await freePort());
    const created = await postJson(`${first.url}/v1/video/generations`, apiKey, {
      model: "gamma-3.1",
      prompt: "a lantern on a jetty",
      duration_sec: 4,
    });
    expect(created.status).toBe(200);
    const jobId = created.body.task_id as string;
    const eventId = `${jobId}.succeeded`;
    expect((await waitForTerminalJob(first.url, apiKey, jobId, WAIT_CAP_MS)).status).toBe(
      "succeeded",
    );
    // Killed between attempts: two made and recorded, the third not yet due.
    const pending = await waitFor(
      "two attempts made and recorded",
      async () => {
        const [delivery] = await deliveriesOf(first.url, eventId);
        return delivery?.attempts.length === 2 && receiver?.received.length === 2
          ? delivery
          : undefined;
      },
      WAIT_CAP_MS,
      50,
    );
    first.child.process.kill("SIGKILL");
    await first.child.exited;
    // The third attempt falls due while the stack is down.
    await waitFor(
      "the third attempt to fall due",
      async () => (Date.now() > Date.parse(pending.nextAttemptAt) ? true : undefined),
      WAIT_CAP_MS,
      50,
    );
    expect(receiver.received).toHaveLength(2);

    const second = await startReady(options, first.port);
    const delivered = await waitFor(
      "the delivery to end",
      async () => {
        const [delivery] = await deliveriesOf(second.url, eventId);
        return delivery?.status === "delivered" ? delivery : undefined;
      },
      WAIT_CAP_MS,
    );
    // Past one more wait of the schedule: nothing further arrives.
    await new Promise((resolve) => setTimeout(resolve, PAST_ONE_MORE_WAIT_MS));
    expect(attemptsPerEvent(receiver)).toEqual({ [eventId]: [503, 503, 503, 503, 503, 200] });
    expect(delivered.attempts.map((a: any) => a.status)).toEqual([503, 503, 503, 503, 503, 200]);
    expect(await deliveriesOf(second.url, eventId)).toHaveLength(1);
    expect((await eventsIn(dataDir)).filter((event) => event.id === eventId)).toHaveLength(1);
    second.child.process.kill("SIGTERM");
    expect(await second.child.exited).toBe(0);
  }, 400_000);
});

import { afterEach, describe, expect, it } from "vitest";
import {
  type FunctionUrlEvent,
  type FunctionUrlResult,
  type SimulatorHandler,
  simulatorHandler,
} from "../src/lambda.ts";
import { pollUntil } from "./helpers.ts";

const KEY = "trial-key";
const DOMAIN = "sim.lambda-url.us-east-1.on.aws";
const instances: SimulatorHandler[] = [];

/** One instance of the function, as Lambda would start it. */
function instance(): SimulatorHandler {
  const handler = simulatorHandler(async () => ({
    apiKey: KEY,
    sharedSecret: KEY,
    generationMs: 100,
  }));
  instances.push(handler);
  return handler;
}

afterEach(async () => {
  await Promise.all(instances.splice(0).map((handler) => handler.close()));
});

function event(
  method: string,
  target: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): FunctionUrlEvent {
  const url = new URL(target, `https://${DOMAIN}`);
  return {
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: {
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
      "x-forwarded-proto": "https",
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
    requestContext: { domainName: DOMAIN, http: { method } },
  };
}

function bodyOf(result: FunctionUrlResult): Buffer {
  return Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8");
}

function jsonOf(result: FunctionUrlResult): Record<string, any> {
  return JSON.parse(bodyOf(result).toString("utf8")) as Record<string, any>;
}

async function create(handler: SimulatorHandler, prompt: string): Promise<string> {
  const made = await handler(
    event("POST", "/v1/video/generations", { body: { model: "alpha-2.7", prompt } }),
  );
  expect(made.statusCode).toBe(200);
  return jsonOf(made).service_task.task_id as string;
}

async function pollEnded(handler: SimulatorHandler, id: string): Promise<Record<string, any>> {
  return pollUntil(
    async () => jsonOf(await handler(event("GET", `/v1/video/tasks/${encodeURIComponent(id)}`))),
    (body) => ["succeeded", "failed"].includes(body.service_task?.status),
  );
}

describe("the simulator as a Lambda function behind a Function URL", () => {
  it("answers a poll and a download on another instance than the one that made the task, with links on the URL's own host", async () => {
    const [a, b] = [instance(), instance()];
    const id = await create(a, "a cat surfing");
    const polled = await pollEnded(b, id);
    expect(polled.service_task.status).toBe("succeeded");
    const link = String(polled.service_task.output.video_url ?? polled.video_url);
    expect(link.startsWith(`https://${DOMAIN}/files/`)).toBe(true);
    const fromB = await b(event("GET", link));
    const fromA = await a(event("GET", link));
    expect(fromB.statusCode).toBe(200);
    expect(fromB.headers["content-type"]).toBe("video/mp4");
    expect(bodyOf(fromB).length).toBeGreaterThan(1000);
    expect(bodyOf(fromB).equals(bodyOf(fromA))).toBe(true);
  });

  it("carries a prompt's task fault to the other instance: the task fails there too", async () => {
    const [a, b] = [instance(), instance()];
    const id = await create(a, 'a cat [[sim:task_fail reason="no cats"]]');
    expect((await pollEnded(b, id)).service_task.status).toBe("failed");
  });

  it("knows no task whose id was altered or signed with another key (404), and refuses a wrong key (401)", async () => {
    const [a, b] = [instance(), instance()];
    const id = await create(a, "a dog");
    const altered = id.replace(/\.([A-Za-z0-9_-])/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    expect((await b(event("GET", `/v1/video/tasks/${altered}`))).statusCode).toBe(404);
    const otherSecret = simulatorHandler(async () => ({ apiKey: KEY, sharedSecret: "another" }));
    instances.push(otherSecret);
    expect((await otherSecret(event("GET", `/v1/video/tasks/${id}`))).statusCode).toBe(404);
    const wrong = await b(
      event("GET", `/v1/video/tasks/${id}`, { headers: { authorization: "Bearer nope" } }),
    );
    expect(wrong.statusCode).toBe(401);
  });

  it("answers 502 where the server drops the connection (the reset fault)", async () => {
    const dropped = await instance()(
      event("POST", "/v1/video/generations", {
        body: { model: "alpha-2.7", prompt: "x" },
        headers: { "x-sim-fault": "reset" },
      }),
    );
    expect(dropped.statusCode).toBe(502);
    expect(jsonOf(dropped).error.code).toBe("connection_dropped");
  });
});

/**
 * The AWS stopper against a stand-in Step Functions endpoint on 127.0.0.1 speaking the service's
 * JSON protocol: what StopExecution it sends, and that a missing execution is not an error.
 */
import { createServer, type Server } from "node:http";
import { SFNClient } from "@aws-sdk/client-sfn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executionArn, stateMachineStopper } from "../../functions/support/stopper.ts";

const MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:JobFlow530BA379-abc";
const JOB = "vidtsk_01J0000000000000000000000Z";

let server: Server;
let sfn: SFNClient;
const calls: { target: string; body: { executionArn?: string; cause?: string } }[] = [];
const missing = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(text) as { executionArn?: string };
      calls.push({ target: String(req.headers["x-amz-target"]), body });
      res.setHeader("content-type", "application/x-amz-json-1.0");
      if (missing.has(body.executionArn ?? "")) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            __type: "com.amazonaws.states#ExecutionDoesNotExist",
            message: "Execution Does Not Exist",
          }),
        );
        return;
      }
      res.end(JSON.stringify({ stopDate: 1_700_000_000 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  sfn = new SFNClient({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sfn?.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

describe("AWS execution stopper", () => {
  it("names the execution by the job id under the machine's ARN", () => {
    expect(executionArn(MACHINE, JOB)).toBe(
      `arn:aws:states:us-east-1:123456789012:execution:JobFlow530BA379-abc:${JOB}`,
    );
  });

  it("sends one StopExecution for that execution ARN with a cause", async () => {
    calls.length = 0;
    await stateMachineStopper(sfn, MACHINE).stop(JOB);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.target).toBe("AWSStepFunctions.StopExecution");
    expect(calls[0]?.body.executionArn).toBe(executionArn(MACHINE, JOB));
    expect(calls[0]?.body.cause).toContain("cancel");
  });

  it("an execution that does not exist (never started) is nothing to stop, not an error", async () => {
    missing.add(executionArn(MACHINE, "vidtsk_NEVERSTARTED"));
    await expect(
      stateMachineStopper(sfn, MACHINE).stop("vidtsk_NEVERSTARTED"),
    ).resolves.toBeUndefined();
  });
});

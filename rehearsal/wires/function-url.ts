/**
 * The template's Lambda Function URLs (AWS::Lambda::Url) as local servers: each request is handed
 * to the URL's function as the payload format 2.0 event a Function URL sends (the HTTP API's, with
 * routeKey `$default`), and the answer mapped back the same way; a function error is a 502, as a
 * Function URL answers one. Auth type NONE only: the rehearsal signs no request to a URL.
 * (docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html)
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { httpEvent } from "./http-event.ts";
import { type ApiResponse, mapResult } from "./http-response.ts";
import { isRecord } from "./template.ts";
import type { Invoke, Template } from "./types.ts";

export interface FunctionUrl {
  /** The Url resource's logical id, whose FunctionUrl attribute is `url`. */
  logicalId: string;
  /** The function's logical id. */
  functionId: string;
  /** As a Function URL's own: ends in "/". */
  url: string;
  close(): Promise<void>;
}

/** The Url resources: their logical ids and the logical id of the function each targets. */
function readUrls(template: Template): { logicalId: string; functionId: string }[] {
  const resources = isRecord(template.Resources) ? template.Resources : {};
  return Object.entries(resources).flatMap(([logicalId, resource]) => {
    if (!isRecord(resource) || resource.Type !== "AWS::Lambda::Url") return [];
    const props = isRecord(resource.Properties) ? resource.Properties : {};
    if (props.AuthType !== "NONE")
      throw new Error(
        `Function URL ${logicalId} has auth ${String(props.AuthType)}; the rehearsal serves NONE only.`,
      );
    const target = isRecord(props.TargetFunctionArn)
      ? props.TargetFunctionArn["Fn::GetAtt"]
      : undefined;
    const functionId = Array.isArray(target) ? String(target[0]) : undefined;
    if (functionId === undefined)
      throw new Error(`Function URL ${logicalId} names its function other than by Fn::GetAtt.`);
    return [{ logicalId, functionId }];
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function answer(
  invoke: Invoke,
  functionId: string,
  req: IncomingMessage,
  account: { accountId: string; region: string },
): Promise<ApiResponse> {
  const received = {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    rawHeaders: req.rawHeaders,
    body: await readBody(req),
    sourceIp: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
    localPort: req.socket.localPort ?? 0,
    httpVersion: req.httpVersion,
  };
  const route = { routeKey: "$default", method: "ANY", segments: [], functionId, timeoutMs: 0 };
  const event = httpEvent(received, {
    ...account,
    match: { route },
    apiId: functionId.toLowerCase(),
    stage: "$default",
    requestId: randomBytes(16).toString("hex"),
    now: new Date(),
  });
  const result = await invoke(functionId, event);
  if (!result.ok)
    return {
      status: 502,
      headers: [["content-type", "application/json"]],
      body: Buffer.from('{"Message":null}'),
    };
  return mapResult(result);
}

function send(res: ServerResponse, response: ApiResponse): void {
  const headers = response.headers.filter(([name]) => name !== "content-length");
  headers.push(["content-length", String(response.body.length)]);
  res.writeHead(response.status, headers.flat());
  res.end(response.body);
}

/** One local server per Function URL of the template. */
export async function startFunctionUrls(
  template: Template,
  invoke: Invoke,
  account: { accountId: string; region: string },
): Promise<FunctionUrl[]> {
  const served: FunctionUrl[] = [];
  for (const { logicalId, functionId } of readUrls(template)) {
    const server = createServer((req, res) => {
      answer(invoke, functionId, req, account).then(
        (response) => send(res, response),
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    served.push({
      logicalId,
      functionId,
      url: `http://127.0.0.1:${port}/`,
      close: () =>
        new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        }),
    });
  }
  return served;
}

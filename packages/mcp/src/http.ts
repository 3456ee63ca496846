/**
 * The server over streamable HTTP, stateless: each POST is answered by a new server and transport
 * (no session to keep, so any API instance, a Lambda function too, answers any request). Tool
 * calls go through @reelay/client with the caller's own key, so each is authorized and limited as
 * the same call on the API would be. Progress notifications of a call travel on its SSE answer.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createClient } from "@reelay/client";
import { createReelayMcpServer } from "./server.ts";

export interface HttpMcpOptions {
  /** Where the tools' calls go, e.g. the request's own origin. */
  baseUrl: string;
  /** The caller's key, sent on each of the tools' calls. */
  apiKey: string;
  /** The API app's own fetch, so the calls are answered in-process. */
  fetch: (request: Request) => Promise<Response>;
  /** Longest wait_for_job, in seconds (a proxy in front may end requests sooner). */
  maxWaitS?: number | undefined;
}

export async function handleMcpRequest(
  request: Request,
  options: HttpMcpOptions,
): Promise<Response> {
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch,
  });
  const server = createReelayMcpServer(client, { maxWaitS: options.maxWaitS });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(request);
}

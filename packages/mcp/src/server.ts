/**
 * reelay's MCP server: one tool per thing an agent asks of reelay, each a call of @reelay/client
 * against any reelay (the local stack or a deployment). Generation is submit-then-wait: a create
 * tool answers the job id at once, and wait_for_job follows it with progress notifications, so an
 * agent does not spend its context polling. The same server runs over stdio (`reelay mcp`) and
 * over streamable HTTP on the API (`/mcp`).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type Job,
  createHeaders,
  type ReelayClient,
  type RequestBody,
  type VideoRequest,
} from "@reelay/client";
import { z } from "zod";
import { answer, guarded, jobSummary, outputLinks, refusal } from "./answers.ts";
import { imageContent } from "./images.ts";
import { uploadLocalFiles } from "./local-files.ts";
import { type ProgressSink, progressSink } from "./progress.ts";

const SERVER_NAME = "reelay";

const jobId = z.string().describe("A job id, e.g. vidtsk_... or imgtsk_...");
const fitFlag = z
  .enum(["nearest"])
  .optional()
  .describe(
    "nearest: a duration, resolution or aspect ratio the model refuses moves to the nearest one it allows instead of being refused; the job's `adjustments` lists each move.",
  );
const imageContentFlag = z
  .boolean()
  .optional()
  .describe("Also return a finished image job's images as image content (not only links).");

/**
 * Fields are typed loosely on purpose: reelay checks each request against its model's rules and
 * answers a tool error naming the field and the rule, which tells an agent more than a schema
 * refusal would. Fields not named here are passed on as they are.
 */
const videoRequest = z
  .looseObject({
    model: z.string().describe("A video model code (list_models modality=video)."),
    prompt: z.string().optional(),
    duration_sec: z.number().optional().describe("Seconds; allowed values per model."),
    resolution: z.string().optional(),
    aspect_ratio: z.string().optional(),
    generate_audio: z.boolean().optional(),
    model_specific_config: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("A video request in the service contract's shape (POST /v1/video/generations).");

/** Passed through as X-Reelay-Metadata: reelay checks the limits and names the key it refuses. */
const metadata = z
  .record(z.string(), z.string())
  .optional()
  .describe(
    "Your own string pairs kept on the job and shown back on it, its events and webhooks (at most 16; keys up to 40 characters, values up to 500).",
  );

/** The app's own id for the end user a job is for (X-Reelay-User); the key's user_limits hold per user. */
const endUser = z
  .string()
  .optional()
  .describe("The end user this is for (the app's own id, 1-128 printable characters).");

const imageRequest = {
  prompt: z.string().describe("What to make, or for an edit what to change."),
  model: z.string().optional().describe("An image model code; default deltaq2-image."),
  reference_images: z
    .array(z.string())
    .optional()
    .describe(
      "1 to 7 images to edit or take from (URLs or upload:// references): this makes the call an edit.",
    ),
  aspect_ratio: z.string().optional(),
  image_size: z.string().optional(),
  output_image_count: z.number().optional(),
  metadata,
  user: endUser,
};

type ImageInput = {
  prompt: string;
  model?: string | undefined;
  reference_images?: string[] | undefined;
  aspect_ratio?: string | undefined;
  image_size?: string | undefined;
  output_image_count?: number | undefined;
  metadata?: Record<string, string> | undefined;
  user?: string | undefined;
};

/** The chat form of an image request; reference images make it an edit (contract §4.5). */
function chatBody(input: ImageInput): RequestBody<"/v1/chat/completions", "post"> {
  const config = {
    ...(input.aspect_ratio === undefined ? {} : { aspect_ratio: input.aspect_ratio }),
    ...(input.image_size === undefined ? {} : { image_size: input.image_size }),
    ...(input.reference_images === undefined
      ? {}
      : { reference_images: input.reference_images.map((url) => ({ type: "url", url })) }),
  };
  return {
    model: input.model ?? "deltaq2-image",
    messages: [{ role: "user", content: input.prompt }],
    modalities: ["image", "text"],
    ...(Object.keys(config).length === 0 ? {} : { image_config: config }),
    ...(input.output_image_count === undefined
      ? {}
      : { output_image_count: input.output_image_count }),
  } as RequestBody<"/v1/chat/completions", "post">;
}

const created = (task: { task_id: string; status?: string }, body: unknown) =>
  answer(
    `Created ${task.task_id} (${task.status ?? "queued"}). Call wait_for_job with job_id ${task.task_id} to follow it to its end and get its links.`,
    body,
  );

async function finished(job: Job, withImages: boolean | undefined): Promise<CallToolResult> {
  const images = withImages === true ? await imageContent(job) : [];
  return answer(jobSummary(job), job, [...outputLinks(job), ...images]);
}

/** How long wait_for_job waits before answering the job as it is (an agent can call it again). */
const DEFAULT_WAIT_S = 600;

export interface McpServerOptions {
  /** Longest wait_for_job in seconds, whatever timeout_s asks; default 600. */
  maxWaitS?: number | undefined;
  /** Over stdio: material given as a path on this machine is uploaded first (local-files.ts). */
  localFiles?: boolean | undefined;
}

/** The request with its local files uploaded, where the server may read them. */
function withUploads<T>(client: ReelayClient, options: McpServerOptions, body: T): Promise<T> {
  return options.localFiles === true ? uploadLocalFiles(client, body) : Promise.resolve(body);
}

const MATERIAL_NOTE =
  " Material (frame and reference URLs) is a public https:// URL or an upload://upl_... reference";
const materialNote = (options: McpServerOptions) =>
  `${MATERIAL_NOTE}${options.localFiles === true ? ", or a path of a file on this machine, uploaded first." : "."}`;

function listModels(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "list_models",
    {
      title: "List models",
      description:
        "reelay's models with each one's rules: modes, durations, resolutions, aspect ratios, audio default and allowed model_specific_config keys.",
      inputSchema: { modality: z.enum(["video", "image"]).optional() },
      annotations: { readOnlyHint: true },
    },
    ({ modality }) =>
      guarded(async () => {
        const { data } = await client.GET("/v1/models", {
          params: { query: modality === undefined ? {} : { modality } },
        });
        const count = (data as { data?: unknown[] }).data?.length ?? 0;
        return answer(`${count} model${count === 1 ? "" : "s"}.`, data);
      }),
  );
}

function validateRequest(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "validate_request",
    {
      title: "Validate a request",
      description:
        "Checks a video or image request against its model's rules and quotes it, making nothing and spending nothing. Errors name the field and the rule.",
      inputSchema: {
        request: z
          .record(z.string(), z.unknown())
          .describe(
            "A video request (as for generate_video) or an image request in the chat form (model, messages, modalities).",
          ),
        fit: fitFlag,
      },
      annotations: { readOnlyHint: true },
    },
    ({ request, fit }) =>
      guarded(async () => {
        const quote = (await client.batches.create([request as VideoRequest], {
          dryRun: true,
          fit,
        })) as Quote;
        const errors = quote.rejected?.[0]?.errors ?? [];
        if (errors.length > 0)
          return refusal("invalid_request", "The request breaks its model's rules.", errors);
        const fitted = quote.fitted?.[0];
        return answer(
          fitted === undefined
            ? "Valid: nothing was made."
            : "Valid once fitted: nothing was made.",
          {
            estimate: quote.estimate ?? null,
            ...(fitted === undefined
              ? {}
              : { adjustments: fitted.adjustments, request: fitted.request }),
          },
        );
      }),
  );
}

function generateVideo(server: McpServer, client: ReelayClient, options: McpServerOptions): void {
  server.registerTool(
    "generate_video",
    {
      title: "Generate a video",
      description: `Creates a video job and answers its id at once; follow it with wait_for_job. The finished video is copied to reelay's storage and answered as a link.${materialNote(options)}`,
      inputSchema: { request: videoRequest, metadata, fit: fitFlag, user: endUser },
    },
    ({ request, metadata: pairs, fit, user }) =>
      guarded(async () => {
        const task = await client.generate(
          await withUploads(client, options, request as VideoRequest),
          { metadata: pairs, fit, user },
        );
        return created(task, task);
      }),
  );
}

function generateImage(server: McpServer, client: ReelayClient, options: McpServerOptions): void {
  server.registerTool(
    "generate_image",
    {
      title: "Generate or edit an image",
      description: `Creates an image job and answers its id at once; with reference_images it edits them. Follow it with wait_for_job.${materialNote(options)}`,
      inputSchema: { ...imageRequest, fit: fitFlag },
    },
    (input) =>
      guarded(async () => {
        const body = await withUploads(client, options, chatBody(input));
        const { data } = await client.POST("/v1/chat/completions", {
          body,
          headers: createHeaders({ metadata: input.metadata, fit: input.fit, user: input.user }),
        });
        return created(data as { task_id: string; status?: string }, data);
      }),
  );
}

function getJob(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "get_job",
    {
      title: "Get a job",
      description: "A job's record now: status, queue position, error, and its outputs as links.",
      inputSchema: { job_id: jobId, image_content: imageContentFlag },
      annotations: { readOnlyHint: true },
    },
    ({ job_id, image_content }) =>
      guarded(async () => {
        const { data } = await client.GET("/v1/jobs/{id}", { params: { path: { id: job_id } } });
        return finished(data as Job, image_content);
      }),
  );
}

function waitForJob(server: McpServer, client: ReelayClient, options: McpServerOptions): void {
  server.registerTool(
    "wait_for_job",
    {
      title: "Wait for a job",
      description:
        "Follows a job until it ends (or timeout_s passes) and answers its record with its outputs as links. Sends progress notifications while it runs when the call carries a progressToken.",
      inputSchema: {
        job_id: jobId,
        timeout_s: z
          .number()
          .optional()
          .describe(
            `Answer the job as it is after this many seconds; default and at most ${options.maxWaitS ?? DEFAULT_WAIT_S}.`,
          ),
        image_content: imageContentFlag,
      },
      annotations: { readOnlyHint: true },
    },
    ({ job_id, timeout_s, image_content }, extra) =>
      guarded(async () => {
        const sink: ProgressSink | undefined = progressSink(extra);
        const longest = options.maxWaitS ?? DEFAULT_WAIT_S;
        const timeout = AbortSignal.timeout(Math.min(timeout_s ?? longest, longest) * 1000);
        let last: Job | undefined;
        try {
          last = await client.waitFor(job_id, {
            signal: AbortSignal.any([extra.signal, timeout]),
            onProgress: (job) => {
              last = job;
              sink?.(job);
            },
          });
        } catch (error) {
          // Out of time is an answer, not a failure: the job goes on and can be waited for again.
          if (!timeout.aborted || extra.signal.aborted || last === undefined) throw error;
        }
        // A client drops progress that comes after its answer: the last state is sent first.
        await sink?.sent();
        return finished(last, image_content);
      }),
  );
}

function cancelJob(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "cancel_job",
    {
      title: "Cancel a job",
      description:
        "Cancels a queued, running or downloading job; a finished job is answered as it is.",
      inputSchema: { job_id: jobId },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    ({ job_id }) =>
      guarded(async () => {
        const { data } = await client.POST("/v1/jobs/{id}/cancel", {
          params: { path: { id: job_id } },
        });
        return answer(jobSummary(data as Job), data);
      }),
  );
}

function createBatch(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "create_batch",
    {
      title: "Create a batch",
      description:
        "Sends many requests (video or image) as one batch; each line is checked, bad lines are reported and the rest run. Follow it with get_batch.",
      inputSchema: {
        requests: z.array(z.record(z.string(), z.unknown())).min(1),
        priority: z.enum(["high", "normal", "low"]).optional(),
        metadata,
        fit: fitFlag,
        user: endUser,
      },
    },
    ({ requests, priority, metadata: pairs, fit, user }) =>
      guarded(async () => {
        const batch = await client.batches.create(requests as VideoRequest[], {
          priority,
          metadata: pairs,
          fit,
          user,
        });
        return answer(`Created batch ${batch.id} of ${batch.total} requests.`, batch);
      }),
  );
}

function getBatch(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "get_batch",
    {
      title: "Get a batch",
      description: "A batch's status and counts by job status.",
      inputSchema: { batch_id: z.string().describe("A batch id, bat_...") },
      annotations: { readOnlyHint: true },
    },
    ({ batch_id }) =>
      guarded(async () => {
        const { data } = await client.GET("/v1/batches/{id}", {
          params: { path: { id: batch_id } },
        });
        return answer(`${data?.id} ${data?.status}.`, data);
      }),
  );
}

function usage(server: McpServer, client: ReelayClient): void {
  server.registerTool(
    "usage",
    {
      title: "Usage",
      description:
        "Jobs, units, cost and failures over a period, grouped; and budgets with their use.",
      inputSchema: {
        from: z.string().optional().describe("ISO date or time"),
        to: z.string().optional(),
        group_by: z.enum(["model", "key", "day", "batch", "account", "user"]).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    (query) =>
      guarded(async () => {
        const defined = Object.fromEntries(
          Object.entries(query).filter(([, value]) => value !== undefined),
        );
        const { data } = await client.GET("/v1/usage", { params: { query: defined } });
        return answer("Usage:", data);
      }),
  );
}

/** A new server over `client`: connect it to one transport (stdio, or one HTTP request). */
export function createReelayMcpServer(
  client: ReelayClient,
  options: McpServerOptions = {},
): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: "0.1.0" });

  listModels(server, client);
  validateRequest(server, client);
  generateVideo(server, client, options);
  generateImage(server, client, options);
  getJob(server, client);
  waitForJob(server, client, options);
  cancelJob(server, client);
  createBatch(server, client);
  getBatch(server, client);
  usage(server, client);
  return server;
}

/** What POST /v1/batches?dry_run=true answers (the OpenAPI document does not describe it yet). */
interface Quote {
  rejected?: { line: number; errors: { path: string; code: string; message: string }[] }[];
  estimate?: unknown;
  /** With fit: each fitted line's moves and the request it would send. */
  fitted?: { line: number; adjustments: unknown[]; request: unknown }[];
}

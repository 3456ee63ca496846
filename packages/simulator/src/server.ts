import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ResolvedOptions, Req, SimContext } from "./context.ts";
import { Counters } from "./counters.ts";
import { inFlightByApiKey } from "./account-limits.ts";
import { FaultEngine } from "./fault-engine.ts";
import { HttpError, sendError } from "./http-io.ts";
import { DEFAULT_MODELS } from "./models.ts";
import { loadTasks, taskJournal } from "./persistence.ts";
import { download } from "./routes/files.ts";
import { chatImage, editImage, pollImage } from "./routes/images.ts";
import { listModels } from "./routes/models.ts";
import { createVideo, pollVideo } from "./routes/video.ts";
import { UrlSigner } from "./signing.ts";
import { PortableIds } from "./portable-ids.ts";
import { useFfmpeg } from "./video-shapes.ts";
import { outputUrls, snapshot } from "./tasks.ts";
import { FORGET_AFTER_MS, forgetEnded } from "./forget.ts";
import type { FaultRule, Simulator, SimulatorOptions } from "./types.ts";

const MiB = 1024 * 1024;

function resolve(o: SimulatorOptions, base?: ResolvedOptions): ResolvedOptions {
  const b: ResolvedOptions = base ?? {
    apiKey: undefined,
    generationMs: 20_000,
    queueMs: 0,
    timeScale: 1,
    dialect: "standard",
    outputBytes: undefined,
    urlTtlMs: 600_000,
    models: [...DEFAULT_MODELS],
    syncImages: false,
    maxBodyBytes: 10 * MiB,
    now: Date.now,
    maxConcurrent: undefined,
    createRate: undefined,
    forgetAfterMs: FORGET_AFTER_MS,
    taskIdPrefix: "",
  };
  const pick = <K extends keyof ResolvedOptions>(k: K): ResolvedOptions[K] =>
    k in o ? ((o as Partial<ResolvedOptions>)[k] as ResolvedOptions[K]) : b[k];
  return {
    apiKey: pick("apiKey"),
    generationMs: pick("generationMs"),
    queueMs: pick("queueMs"),
    timeScale: pick("timeScale"),
    dialect: pick("dialect"),
    outputBytes: pick("outputBytes"),
    urlTtlMs: pick("urlTtlMs"),
    models: pick("models"),
    syncImages: pick("syncImages"),
    maxBodyBytes: pick("maxBodyBytes"),
    now: pick("now"),
    maxConcurrent: pick("maxConcurrent"),
    createRate: pick("createRate"),
    forgetAfterMs: pick("forgetAfterMs"),
    taskIdPrefix: pick("taskIdPrefix"),
  };
}

function authorized(req: IncomingMessage, apiKey: string | undefined): boolean {
  if (apiKey === undefined || apiKey === "") return true;
  const given = Buffer.from(req.headers.authorization ?? "", "utf8");
  const want = Buffer.from(`Bearer ${apiKey}`, "utf8");
  return given.length === want.length && timingSafeEqual(given, want);
}

function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

async function route(ctx: SimContext, r: Req): Promise<void> {
  const method = r.req.method ?? "GET";
  const path = r.url.pathname;
  const file = /^\/files\/([^/]+)\/([^/]+)$/.exec(path);
  if (file !== null) {
    if (method !== "GET" && method !== "HEAD")
      throw new HttpError(405, "method_not_allowed", `${method} is not allowed here`);
    return download(ctx, r, decodeId(file[1] ?? ""), decodeId(file[2] ?? ""));
  }
  if (path !== "/v1" && !path.startsWith("/v1/"))
    throw new HttpError(404, "not_found", `No route for ${path}`);
  if (!authorized(r.req, ctx.opts.apiKey))
    throw new HttpError(401, "unauthorized", "Missing or wrong `Authorization: Bearer <key>`");
  const video = /^\/v1\/video\/tasks\/([^/]+)$/.exec(path);
  const image = /^\/v1\/image\/tasks\/([^/]+)$/.exec(path);
  const routes: [string, string | RegExpExecArray | null, () => Promise<void>][] = [
    ["POST", path === "/v1/video/generations" ? path : null, () => createVideo(ctx, r)],
    ["GET", video, () => pollVideo(ctx, r, decodeId(video?.[1] ?? ""))],
    ["POST", path === "/v1/chat/completions" ? path : null, () => chatImage(ctx, r)],
    ["GET", image, () => pollImage(ctx, r, decodeId(image?.[1] ?? ""))],
    ["POST", path === "/v1/images/edits" ? path : null, () => editImage(ctx, r)],
    ["GET", path === "/v1/models" ? path : null, () => listModels(ctx, r)],
  ];
  const matched = routes.filter(([, m]) => m !== null);
  const hit = matched.find(([verb]) => verb === method);
  if (hit !== undefined) return hit[2]();
  if (matched.length > 0)
    throw new HttpError(405, "method_not_allowed", `${method} is not allowed on ${path}`);
  throw new HttpError(404, "not_found", `No route for ${path}`);
}

/** Never lets a request crash the server: bad input is 4xx, a simulator bug is a 500 JSON answer. */
async function handle(ctx: SimContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  ctx.counters.request();
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    await route(ctx, { req, res, url });
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) sendError(res, err.status, err.code, err.message, err.headers);
    else sendError(res, 500, "internal_error", "The simulator failed to handle this request");
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolveListen();
    });
  });
}

/** Closes the port and destroys every connection, idle or mid-request, so none is left hanging. */
function stopListening(server: Server): Promise<void> {
  return new Promise<void>((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}

/**
 * down, up and close change whether the server listens; each waits for the one before, so a
 * `down` then `up` called together end up listening, in that order.
 */
function listening(server: Server, port: number, host: string) {
  let state: "up" | "down" | "closed" = "up";
  let last = Promise.resolve();
  const serial = (step: () => Promise<void>): Promise<void> => {
    const next = last.then(step);
    last = next.catch(() => undefined);
    return next;
  };
  return {
    isDown: () => state !== "up",
    down: () =>
      serial(async () => {
        if (state !== "up") return;
        state = "down";
        await stopListening(server);
      }),
    up: () =>
      serial(async () => {
        if (state === "closed") throw new Error("The simulator is closed; it cannot come up again");
        if (state === "up") return;
        // The same port, so the URL every client holds (and every job pinned to it) works again.
        await listen(server, port, host);
        state = "up";
      }),
    close: () =>
      serial(async () => {
        const was = state;
        state = "closed";
        if (was === "up") await stopListening(server);
      }),
  };
}

/** The server's shared state from its options; `keyRules` keys the server-wide fault rules. */
function newContext(
  options: SimulatorOptions,
  keyRules: (rules: FaultRule[]) => SimContext["serverRules"],
): SimContext {
  const secret = options.sharedSecret;
  const ctx: SimContext = {
    opts: resolve(options),
    tasks: new Map(),
    byKey: new Map(),
    counters: new Counters(),
    limits: { nextCreateAt: new Map() },
    engine: new FaultEngine(),
    signer: new UrlSigner(secret),
    serverRules: keyRules(options.faults ?? []),
    origin: "",
    fetches: new AbortController(),
    ...(secret === undefined ? {} : { portable: new PortableIds(secret) }),
  };
  if (options.stateFile !== undefined) {
    loadTasks(options.stateFile, ctx.tasks, ctx.byKey, ctx.opts.apiKey);
    ctx.journal = taskJournal(options.stateFile, ctx.opts.apiKey);
    forgetEnded(ctx);
  }
  return ctx;
}

/** Starts a real HTTP server that behaves like the upstream generation service. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  let generation = 0;
  const keyRules = (rules: FaultRule[]): SimContext["serverRules"] => {
    generation++;
    return rules.map((rule, i) => ({ rule, key: `server:${generation}:${i}` }));
  };
  await useFfmpeg(options.ffmpegPath);
  const ctx = newContext(options, keyRules);
  const engine = ctx.engine;
  const server = createServer({ keepAlive: true }, (req, res) => void handle(ctx, req, res));
  await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  ctx.origin = options.publicOrigin ?? origin;
  const port = listening(server, address.port, address.address);

  return {
    url: `${origin}/v1`,
    origin,
    counters: () => ctx.counters.snapshot(engine.injectedCounts(), inFlightByApiKey(ctx)),
    setDialect: (d) => {
      ctx.opts.dialect = d;
    },
    setFaults: (rules) => {
      ctx.serverRules = keyRules(rules);
    },
    setOptions: (o) => {
      ctx.opts = resolve(o, ctx.opts);
      if (o.faults !== undefined) ctx.serverRules = keyRules(o.faults);
    },
    task: (id) => {
      const t = ctx.tasks.get(id);
      return t === undefined
        ? undefined
        : snapshot(t, ctx.opts.now(), outputUrls(t, ctx.signer, ctx.origin, ctx.opts.urlTtlMs));
    },
    reset: () => {
      ctx.tasks.clear();
      ctx.byKey.clear();
      ctx.limits.nextCreateAt.clear();
      ctx.counters.clear();
      engine.clear();
    },
    down: port.down,
    up: port.up,
    get isDown() {
      return port.isDown();
    },
    close: () => {
      ctx.fetches.abort();
      return port.close();
    },
  };
}

/** Public types of the simulator: the agreed interface between the simulator and its users. */

export const DIALECTS = ["standard", "flat", "nested_output", "url_only", "string_error"] as const;
export type DialectName = (typeof DIALECTS)[number];

export type FaultName =
  | "rate_limit"
  | "server_error"
  | "reset"
  | "slow"
  | "business_error"
  | "task_fail"
  | "never_finish"
  | "download_error"
  | "truncate"
  | "truncated_file"
  | "undecodable_file";

export const FAULT_NAMES: readonly FaultName[] = [
  "rate_limit",
  "server_error",
  "reset",
  "slow",
  "business_error",
  "task_fail",
  "never_finish",
  "download_error",
  "truncate",
  "truncated_file",
  "undecodable_file",
];

export type FaultTarget = "create" | "poll" | "download" | "image" | "any";

export interface FaultRule {
  fault: FaultName;
  /** Which requests it applies to; default: create, poll and image requests (downloads for download faults). */
  on?: FaultTarget;
  /** 0..1, per request (or per task for task_fail/never_finish); default 1. */
  probability?: number;
  /** Apply at most this many times in total (per rule); default unlimited. */
  times?: number;
  retryAfterS?: number;
  delayMs?: number;
  status?: number;
  /** For reset/server_error on create: the task is made, then the answer is lost. */
  after?: boolean;
  /** For task_fail: the failure reason shown to the client. */
  reason?: string;
  /**
   * Only requests and tasks of this model (the create's `model`, or the polled or downloaded task's):
   * one model failing on one account while the others go on. A request that names no known task
   * (a models listing, a poll of an unknown id) is of no model. Default: every model.
   */
  model?: string;
}

export interface ModelEntry {
  id: string;
  modality: "video" | "image";
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  generationMs?: number;
  queueMs?: number;
  timeScale?: number;
  dialect?: DialectName;
  faults?: FaultRule[];
  outputBytes?: number;
  urlTtlMs?: number;
  models?: ModelEntry[];
  syncImages?: boolean;
  /**
   * Keep tasks in this file (JSON lines) and load them at start, so a restarted simulator still
   * knows every task it made, as a real upstream would. Counters and fault budgets start afresh.
   */
  stateFile?: string;
  /** Request bodies above this many bytes answer 413. Default 10 MiB. */
  maxBodyBytes?: number;
  /** Clock in epoch milliseconds; tests may pass a fake one. Default Date.now. */
  now?: () => number;
  /**
   * Tasks in flight (created, not ended) per API key at most; a create beyond answers 429 with a
   * Retry-After. The API key is the create's bearer token. Default unlimited.
   */
  maxConcurrent?: number;
  /** Creates per second per API key at most; a create beyond answers 429. Default unlimited. */
  createRate?: number;
  /**
   * A task ended longer ago than this is forgotten (a poll of it answers 404), and dropped from the
   * state file, as a real service's results expire. Default 24 hours.
   */
  forgetAfterMs?: number;
  /**
   * Put before every task id (`alpha_` makes `alpha_vidtsk_...`), so each simulated account's ids
   * are its own and a task id names the account that made it. Default none.
   */
  taskIdPrefix?: string;
  /**
   * Download links are made with this origin (`https://host`) instead of the address it listens at,
   * for a simulator reached through a proxy (the deployed one, behind its Function URL). `url` and
   * `origin` stay where it listens.
   */
  publicOrigin?: string;
  /**
   * Task ids carry their tasks, signed with this secret (portable-ids.ts), and download links are
   * signed with it too: simulators given the same secret answer polls and downloads of each
   * other's tasks, as the deployed simulator's instances do. Default: ids that name a task this
   * simulator keeps, links signed with a random secret.
   */
  sharedSecret?: string;
  /** The ffmpeg binary that encodes the videos' clips. Default: @ffmpeg-installer's. */
  ffmpegPath?: string;
}

export type SimTaskStatus = "queued" | "running" | "succeeded" | "failed";

export interface SimOutput {
  name: string;
  url: string;
  bytes: number;
  /** Lazily computed hex sha256 of exactly the bytes a download of `url` returns. */
  readonly sha256: string;
}

export interface SimTask {
  id: string;
  kind: "video" | "image";
  model: string;
  dialect: DialectName;
  status: SimTaskStatus;
  request: unknown;
  idempotencyKey: string | undefined;
  createdAt: number;
  /** Epoch ms at which the task ends (succeeds or fails); Infinity for never_finish. */
  finishesAt: number;
  failReason: string | undefined;
  /** Signed download URLs; empty until the task succeeded. */
  outputUrls: string[];
  outputs: SimOutput[];
  /** Size of the (first) output in bytes. */
  outputBytes: number;
  /** Hex sha256 of the (first) output; undefined until the task succeeded. */
  readonly outputSha256: string | undefined;
}

export interface SimulatorCounters {
  requests: number;
  creates: number;
  tasksCreated: number;
  createsByKey: Record<string, number>;
  tasksByKey: Record<string, number>;
  polls: number;
  pollsByTask: Record<string, number>;
  downloads: number;
  downloadsByTask: Record<string, number>;
  faultsInjected: Record<string, number>;
  /** Creates answered 429 by the account limits (maxConcurrent, createRate); injected faults not counted. */
  limited: number;
  /** `limited` per API key (the create's bearer token, "" for none). */
  limitedByApiKey: Record<string, number>;
  /** The most tasks in flight at once over all API keys, seen at each create. */
  peakInFlight: number;
  /** The most tasks in flight at once per API key, seen at each create. */
  peakInFlightByApiKey: Record<string, number>;
  /** Tasks in flight now over all API keys. */
  inFlight: number;
  /** Tasks in flight now per API key; keys with none are left out. */
  inFlightByApiKey: Record<string, number>;
  /** The material URLs tasks' creates named, as fetched, in the order the fetches ended. */
  materialFetches: MaterialFetch[];
}

/** One fetch of a material URL: the URL without its query, whether it was presigned, the status. */
export interface MaterialFetch {
  url: string;
  signed: boolean;
  status: number | null;
}

export interface Simulator {
  url: string;
  origin: string;
  counters(): SimulatorCounters;
  setDialect(d: DialectName): void;
  setFaults(rules: FaultRule[]): void;
  setOptions(o: Partial<SimulatorOptions>): void;
  task(id: string): SimTask | undefined;
  reset(): void;
  /**
   * Stops listening and destroys every open connection, so a new connection is refused
   * (ECONNREFUSED) rather than left hanging: the account is down. Tasks, their clocks and the
   * idempotency keys stay. Resolves once the port is closed; a second call does nothing.
   */
  down(): Promise<void>;
  /** Listens again on the same host and port after `down`; a call while up does nothing. */
  up(): Promise<void>;
  /** True between `down` and the next `up`. */
  readonly isDown: boolean;
  close(): Promise<void>;
}

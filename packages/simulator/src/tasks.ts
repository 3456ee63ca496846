import { createHash, randomBytes } from "node:crypto";
import type { KeyedRule } from "./fault-engine.ts";
import { solidPng } from "./png.ts";
import type { UrlSigner } from "./signing.ts";
import type { DialectName, SimOutput, SimTask, SimTaskStatus } from "./types.ts";
import { videoChunks, videoSha256, VIDEO_FIXTURE } from "./video-output.ts";
import { clipOf, type VideoShape } from "./video-shapes.ts";

/** Everything fixed when a task is made; its status is derived from these timestamps at read time. */
export interface TaskRecord {
  id: string;
  kind: "video" | "image";
  model: string;
  dialect: DialectName;
  request: unknown;
  idempotencyKey: string | undefined;
  /** The API key (bearer token) the create carried, "" for none: whose limits the task counts against. */
  account: string;
  createdAt: number;
  runningAt: number;
  /** Infinity when the task never finishes. */
  finishesAt: number;
  /** Set when the task ends failed. */
  failReason: string | undefined;
  outputBytes: number;
  /** The shape of the clip a video task serves; absent: the committed fixture. */
  video?: VideoShape;
  imageCount: number;
  /** Rules attached from the create header or prompt directives, applied to this task's polls and downloads. */
  faults: KeyedRule[];
  shaCache: Map<string, string>;
}

/** `[prefix]vidtsk_<hex>` or `[prefix]imgtsk_<hex>`. */
export function newTaskId(kind: "video" | "image", prefix: string): string {
  return `${prefix}${kind === "video" ? "vidtsk" : "imgtsk"}_${randomBytes(13).toString("hex")}`;
}

/** The id's first part (`[prefix]vidtsk_<hex>`): the whole of an id, unless a portable id's (portable-ids.ts). */
function baseOf(id: string): string {
  const dot = id.indexOf(".");
  return dot < 0 ? id : id.slice(0, dot);
}

/** The random part of a task id, after any prefix and the kind (and before a portable id's payload). */
export function taskIdSuffix(id: string): string {
  const base = baseOf(id);
  return base.slice(base.lastIndexOf("_") + 1);
}

export function statusAt(t: TaskRecord, now: number): SimTaskStatus {
  if (now < t.runningAt) return "queued";
  if (now < t.finishesAt) return "running";
  return t.failReason === undefined ? "succeeded" : "failed";
}

export function outputNames(t: TaskRecord): string[] {
  if (t.kind === "video") return ["video.mp4"];
  return Array.from({ length: t.imageCount }, (_, i) => `image-${i}.png`);
}

export function pngFor(t: TaskRecord, name: string): Buffer {
  return solidPng(`${t.id}/${name}`);
}

export function outputSize(t: TaskRecord, name: string): number {
  return t.kind === "video" ? t.outputBytes : pngFor(t, name).length;
}

function clipFor(t: TaskRecord): Buffer {
  return t.video === undefined ? VIDEO_FIXTURE : clipOf(t.video);
}

/** The bytes a download of `name` returns, as chunks. */
export function outputChunks(t: TaskRecord, name: string): Iterable<Buffer> {
  return t.kind === "video" ? videoChunks(t.outputBytes, t.id, clipFor(t)) : [pngFor(t, name)];
}

function outputSha(t: TaskRecord, name: string): string {
  let sha = t.shaCache.get(name);
  if (sha === undefined) {
    sha =
      t.kind === "video"
        ? videoSha256(t.outputBytes, t.id, clipFor(t))
        : createHash("sha256").update(pngFor(t, name)).digest("hex");
    t.shaCache.set(name, sha);
  }
  return sha;
}

/** Signed URLs of a succeeded task; they expire `ttlMs` after the moment of success. */
export function outputUrls(
  t: TaskRecord,
  signer: UrlSigner,
  origin: string,
  ttlMs: number,
): string[] {
  return outputNames(t).map((name) =>
    signer.sign(origin, `/files/${t.id}/${name}`, t.finishesAt + ttlMs),
  );
}

export function snapshot(t: TaskRecord, now: number, urls: string[]): SimTask {
  const status = statusAt(t, now);
  const done = status === "succeeded";
  const outputs: SimOutput[] = done
    ? outputNames(t).map((name, i) => ({
        name,
        url: urls[i] ?? "",
        bytes: outputSize(t, name),
        get sha256() {
          return outputSha(t, name);
        },
      }))
    : [];
  const first = outputNames(t)[0] ?? "";
  return {
    id: t.id,
    kind: t.kind,
    model: t.model,
    dialect: t.dialect,
    status,
    request: t.request,
    idempotencyKey: t.idempotencyKey,
    createdAt: t.createdAt,
    finishesAt: t.finishesAt,
    failReason: t.failReason,
    outputUrls: done ? urls : [],
    outputs,
    outputBytes: outputSize(t, first),
    get outputSha256() {
      return done ? outputSha(t, first) : undefined;
    },
  };
}

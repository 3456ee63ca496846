/**
 * Task ids that carry their task, for a simulator run as many instances at once (the deployed
 * simulator: a Lambda function behind a URL, where any instance may answer a poll or a download of
 * a task another instance made, and an instance may be gone by then). A task's status is computed
 * from timestamps fixed at its create (tasks.ts), so everything a poll or a download needs fits in
 * the id: `<kind id>.<payload>.<mac>`, the payload the task's fixed fields as base64url JSON, the
 * mac an HMAC of it under the simulator's secret, so an id no instance made is unknown (404), not
 * a task of any size the caller likes.
 *
 * What stays per instance: a create's idempotency key (a repeat that lands on another instance
 * makes a second task), the fault budgets (`times`, counted by each instance), the counters and
 * the account limits. The task's request body is not carried (only the video shape it asked for).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { KeyedRule } from "./fault-engine.ts";
import type { TaskRecord } from "./tasks.ts";
import { DIALECTS, type DialectName, type FaultRule } from "./types.ts";

/** The fields of a task fixed at its create, as the payload holds them. */
interface Carried {
  m: string;
  d: DialectName;
  c: number;
  r: number;
  /** null: never finishes. */
  f: number | null;
  x: string | null;
  o: number;
  /** [width, height, seconds] of the clip; absent: the committed fixture. */
  v?: [number, number, number];
  n: number;
  /** The task's own poll and download rules, each with its index in the create's rules (its key). */
  a: [number, FaultRule][];
}

const MAC_BYTES = 16;

/** The key of a task's own rule: by the id's first part, which exists before the id is whole. */
export function ownRuleKey(base: string, index: number): string {
  return `task:${base}:${index}`;
}

export class PortableIds {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = `ids\n${secret}`;
  }

  #mac(payload: string): Buffer {
    return createHmac("sha256", this.#secret).update(payload).digest().subarray(0, MAC_BYTES);
  }

  /** The whole id of a task whose `id` is still its first part. */
  encode(task: TaskRecord): string {
    const carried: Carried = {
      m: task.model,
      d: task.dialect,
      c: task.createdAt,
      r: task.runningAt,
      f: Number.isFinite(task.finishesAt) ? task.finishesAt : null,
      x: task.failReason ?? null,
      o: task.outputBytes,
      ...(task.video === undefined
        ? {}
        : { v: [task.video.width, task.video.height, task.video.durationS] }),
      n: task.imageCount,
      a: task.faults.map((k) => [Number(k.key.slice(k.key.lastIndexOf(":") + 1)), k.rule]),
    };
    const payload = Buffer.from(JSON.stringify(carried)).toString("base64url");
    return `${task.id}.${payload}.${this.#mac(payload).toString("base64url")}`;
  }

  /** The task an id carries, counted against `account`; undefined for an id this secret did not sign. */
  decode(id: string, account: string): TaskRecord | undefined {
    const [base = "", payload = "", mac = "", ...rest] = id.split(".");
    const kind = /(^|_)vidtsk_[0-9a-f]+$/.test(base)
      ? "video"
      : /(^|_)imgtsk_[0-9a-f]+$/.test(base)
        ? "image"
        : undefined;
    if (kind === undefined || rest.length > 0) return undefined;
    const given = Buffer.from(mac, "base64url");
    const want = this.#mac(payload);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
    const c = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Carried;
    if (!DIALECTS.includes(c.d)) return undefined;
    const faults: KeyedRule[] = c.a.map(([i, rule]) => ({ rule, key: ownRuleKey(base, i) }));
    return {
      id,
      kind,
      model: c.m,
      dialect: c.d,
      request: undefined,
      idempotencyKey: undefined,
      account,
      createdAt: c.c,
      runningAt: c.r,
      finishesAt: c.f ?? Number.POSITIVE_INFINITY,
      failReason: c.x ?? undefined,
      outputBytes: c.o,
      ...(c.v === undefined ? {} : { video: { width: c.v[0], height: c.v[1], durationS: c.v[2] } }),
      imageCount: c.n,
      faults,
      shaCache: new Map(),
    };
  }
}

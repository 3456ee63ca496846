/** s3rver ships no types; these are the few members of s3rver 3.7.1 the stand-ins use. */
import type { AddressInfo } from "node:net";
import type { S3rverStore } from "./in-place-multipart.ts";

/** The members of the Koa context s3rver's middleware receive that a patch reads or sets. */
interface KoaContext {
  method: string;
  url: string;
  status: number;
  type: string;
  body: unknown;
}
export type S3rverMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** One record of the S3 notification s3rver emits in-process for each created or removed object. */
export interface S3rverEventRecord {
  eventName: string;
  s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string } };
}

export interface S3rverInstance {
  store: S3rverStore;
  middleware: S3rverMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  on(event: "event", listener: (event: { Records: S3rverEventRecord[] }) => void): void;
}
export type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;
/** What the drops need of s3rver: its notifications, from this process or from its child. */
export type S3Notifications = Pick<S3rverInstance, "on">;

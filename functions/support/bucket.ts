/**
 * For the functions whose every call uses the bucket (Download, Finish, Fail, Drop): the S3 client
 * and core's S3 store, which ObjectStore otherwise loads at the first call, loaded with the
 * function's module, so a cold start does it before the first invocation rather than in it.
 */
import { ObjectStore } from "@reelay/core/adapters";

export async function loadBucketClient(): Promise<void> {
  await Promise.all([import("./s3-client.ts"), ObjectStore.loadModule()]);
}

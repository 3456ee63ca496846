/** One dynalite and s3rver for a test file: started before its tests, stopped after them. */
import { afterAll, beforeAll } from "vitest";
import { type LocalAws, startLocalAws } from "./local-aws.ts";

/** The file's stack, for its tests to reach once it is up. */
export function sharedLocalAws(): () => LocalAws {
  let aws: LocalAws | undefined;
  beforeAll(async () => {
    aws = await startLocalAws();
  });
  afterAll(() => aws?.stop());
  return () => {
    if (aws === undefined) throw new Error("sharedLocalAws: the stack is not up yet");
    return aws;
  };
}

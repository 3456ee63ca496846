/**
 * One AWS API call as the rehearsal sees it at its gateway (rehearsal/aws/): who signed it, which
 * service and operation, and what the request names. The gateway parses every request the
 * functions send into this shape (parse.ts), asks the IAM gate (rehearsal/iam/) whether the
 * caller's role may make it, and only then forwards it to its stand-in.
 */

/** The services the functions call, by the signing name in their SigV4 credential scope. */
export type AwsService = "dynamodb" | "s3" | "events" | "ssm" | "lambda" | "states" | "xray";

/** An S3 object (or bucket, when `key` is absent) a call names. */
export interface S3Target {
  bucket: string;
  key?: string;
}

/** What an S3 call names, read from its method, path, query and headers (S3 is REST, not JSON). */
export interface S3Input extends S3Target {
  /** CopyObject and UploadPartCopy: the source (`x-amz-copy-source`). */
  copySource?: S3Target;
  /** The request sets tags: an `x-amz-tagging` header, or a PutObjectTagging call. */
  tagging: boolean;
  /** CopyObject's `x-amz-tagging-directive` (COPY when absent). */
  taggingDirective?: "COPY" | "REPLACE";
  /** ListObjects(V2)'s `prefix` query parameter. */
  prefix?: string;
  /** DeleteObjects: the keys in its XML body. */
  deleteKeys?: string[];
}

export interface AwsCall {
  /** The access key id the request was signed with (in the rehearsal, one per function role). */
  accessKeyId: string;
  service: AwsService;
  /** The API operation, as the SDK names its command without "Command": GetItem, PutObject, PutEvents. */
  operation: string;
  /**
   * The request's parameters: the JSON body for the JSON protocols (DynamoDB, EventBridge, SSM,
   * Step Functions, X-Ray), S3Input for S3, and for Lambda's Invoke `{ FunctionName,
   * InvocationType }` with the payload left out.
   */
  input: Record<string, unknown>;
}

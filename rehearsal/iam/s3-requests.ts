/**
 * The authorizations an S3 call needs, from the S3 user guide's "Required permissions for Amazon S3
 * API operations" and each operation's Permissions section in the S3 API reference. Objects are
 * `arn:<partition>:s3:::<bucket>/<key>`, buckets `arn:<partition>:s3:::<bucket>`: no region, no
 * account.
 */
import type { AwsCall, S3Input, S3Target } from "../aws/call.ts";
import {
  type AccountFacts,
  type IamRequest,
  isRecord,
  malformed,
  request,
  unknownOperation,
} from "./iam-request.ts";

type Build = (call: AwsCall, s3: S3Input, arn: Arns) => IamRequest[];

interface Arns {
  bucket(target: S3Target): string;
  object(call: AwsCall, target: S3Target): string;
}

/** Operations that need one action on the object they name. */
const OBJECT_ACTIONS: Record<string, string> = {
  // HEAD needs s3:GetObject (HeadObject, S3 API reference).
  GetObject: "s3:GetObject",
  HeadObject: "s3:GetObject",
  // "You must be allowed to perform the s3:PutObject action on an object to upload a part" and to
  // complete the upload; aborting and listing parts have their own actions (S3 user guide,
  // "Multipart upload API and permissions").
  UploadPart: "s3:PutObject",
  CompleteMultipartUpload: "s3:PutObject",
  AbortMultipartUpload: "s3:AbortMultipartUpload",
  ListParts: "s3:ListMultipartUploadParts",
  DeleteObject: "s3:DeleteObject",
  GetObjectTagging: "s3:GetObjectTagging",
  PutObjectTagging: "s3:PutObjectTagging",
  DeleteObjectTagging: "s3:DeleteObjectTagging",
};

/** Operations that need one action on the bucket they name. */
const BUCKET_ACTIONS: Record<string, string> = {
  // HeadBucket: "you must have permissions to perform the s3:ListBucket action" (S3 API reference).
  HeadBucket: "s3:ListBucket",
  ListMultipartUploads: "s3:ListBucketMultipartUploads",
  CreateBucket: "s3:CreateBucket",
  DeleteBucket: "s3:DeleteBucket",
};

const BUILDERS: Record<string, Build> = {
  PutObject: writeWithTags,
  CreateMultipartUpload: writeWithTags,
  CopyObject: copyObject,
  UploadPartCopy: (call, s3, arn) => [
    request("s3:GetObject", arn.object(call, copySourceOf(call, s3))),
    request("s3:PutObject", arn.object(call, s3)),
  ],
  // "If you're deleting objects ... you must always specify the s3:DeleteObject permission"
  // (DeleteObjects, S3 API reference): each key is its own object.
  DeleteObjects: (call, s3, arn) => {
    if (s3.deleteKeys === undefined || s3.deleteKeys.length === 0)
      throw malformed(call, "names no keys to delete");
    return s3.deleteKeys.map((key) =>
      request("s3:DeleteObject", arn.object(call, { bucket: s3.bucket, key })),
    );
  },
  ListObjects: list,
  ListObjectsV2: list,
};

export function s3Requests(call: AwsCall, facts: AccountFacts): IamRequest[] {
  const s3 = s3InputOf(call);
  const arn: Arns = {
    bucket: (target) => `arn:${facts.partition}:s3:::${target.bucket}`,
    object: (c, target) => {
      if (target.key === undefined || target.key === "") throw malformed(c, "names no object key");
      return `arn:${facts.partition}:s3:::${target.bucket}/${target.key}`;
    },
  };
  const objectAction = OBJECT_ACTIONS[call.operation];
  if (objectAction !== undefined) return [request(objectAction, arn.object(call, s3))];
  const bucketAction = BUCKET_ACTIONS[call.operation];
  if (bucketAction !== undefined) return [request(bucketAction, arn.bucket(s3))];
  const build = BUILDERS[call.operation];
  if (build === undefined) throw unknownOperation(call);
  return build(call, s3, arn);
}

/**
 * PutObject with an x-amz-tagging header also needs s3:PutObjectTagging ("you must have the
 * s3:PutObjectTagging" when the request includes it: PutObject's Permissions, S3 API reference);
 * CreateMultipartUpload sets the tags of the object it will make the same way.
 */
function writeWithTags(call: AwsCall, s3: S3Input, arn: Arns): IamRequest[] {
  const object = arn.object(call, s3);
  return [
    request("s3:PutObject", object),
    ...(s3.tagging ? [request("s3:PutObjectTagging", object)] : []),
  ];
}

/**
 * Reading the source needs s3:GetObject and writing the copy s3:PutObject (CopyObject's
 * Permissions, S3 API reference). Tags: with REPLACE the copy gets the request's x-amz-tagging,
 * written with s3:PutObjectTagging as PutObject's are; with COPY (the default) the source's tags
 * are read and written, which needs "s3:GetObjectTagging permission for the source object and
 * s3:PutObjectTagging permission for objects in the destination bucket" (AWS Knowledge Center
 * article s3-troubleshoot-copy-between-buckets). Whether the source has tags the gate
 * cannot see, so a COPY is held to that rule always: a copy that passes only while its source
 * happens to be untagged would fail the day a tagged one comes along.
 */
function copyObject(call: AwsCall, s3: S3Input, arn: Arns): IamRequest[] {
  const source = arn.object(call, copySourceOf(call, s3));
  const target = arn.object(call, s3);
  const requests = [request("s3:GetObject", source), request("s3:PutObject", target)];
  if (s3.taggingDirective === "REPLACE") {
    if (s3.tagging) requests.push(request("s3:PutObjectTagging", target));
  } else {
    requests.push(request("s3:GetObjectTagging", source), request("s3:PutObjectTagging", target));
  }
  return requests;
}

/**
 * Listing needs s3:ListBucket on the bucket (ListObjectsV2's Permissions, S3 API reference), with
 * the request's `prefix` as `s3:prefix`. A request without one carries no `s3:prefix`, so a policy
 * that requires a prefix denies it.
 */
function list(_call: AwsCall, s3: S3Input, arn: Arns): IamRequest[] {
  const context: IamRequest["context"] = s3.prefix === undefined ? {} : { "s3:prefix": s3.prefix };
  return [request("s3:ListBucket", arn.bucket(s3), context)];
}

function copySourceOf(call: AwsCall, s3: S3Input): S3Target {
  if (s3.copySource === undefined) throw malformed(call, "has no x-amz-copy-source");
  return s3.copySource;
}

/** The gateway's S3Input, checked: the gate reads only what it can trust the shape of. */
function s3InputOf(call: AwsCall): S3Input {
  const input = call.input;
  const target = (value: unknown): S3Target | undefined =>
    isRecord(value) && typeof value.bucket === "string" && value.bucket !== ""
      ? { bucket: value.bucket, ...(typeof value.key === "string" ? { key: value.key } : {}) }
      : undefined;
  const bucket = target(input);
  if (bucket === undefined) throw malformed(call, "names no bucket");
  const copySource = target(input.copySource);
  const directive = input.taggingDirective;
  const deleteKeys = Array.isArray(input.deleteKeys)
    ? input.deleteKeys.filter((key): key is string => typeof key === "string")
    : undefined;
  return {
    ...bucket,
    tagging: input.tagging === true,
    ...(copySource === undefined ? {} : { copySource }),
    ...(directive === "COPY" || directive === "REPLACE" ? { taggingDirective: directive } : {}),
    ...(typeof input.prefix === "string" ? { prefix: input.prefix } : {}),
    ...(deleteKeys === undefined ? {} : { deleteKeys }),
  };
}

/**
 * The template's S3 bucket notifications to Lambda: CDK's Custom::S3BucketNotifications (which
 * puts the whole configuration on the bucket) and a bucket's own NotificationConfiguration. An
 * object created in a bucket notifies each function whose configuration names that event and
 * whose prefix/suffix filter the key passes, with the record S3 sends.
 * (docs.aws.amazon.com/AmazonS3/latest/userguide/notification-content-structure.html)
 */
import { createHash, randomBytes } from "node:crypto";
import { functionOf, isRecord, refOf, resourcesOfType } from "./template.ts";
import type { InvokeAsync, Template } from "./types.ts";

interface NotificationOptions {
  /** Deployed bucket names, by logical id (else the bucket's BucketName property). */
  bucketNames: Record<string, string>;
  region: string;
}

interface ObjectCreated {
  bucket: string;
  key: string;
  size: number;
  eTag?: string;
  eventName: "Put" | "Post" | "Copy" | "CompleteMultipartUpload";
}

interface Configuration {
  bucket: string;
  id: string;
  events: string[];
  rules: { name: string; value: string }[];
  functionId: string;
}

function bucketName(
  template: Template,
  value: unknown,
  options: NotificationOptions,
  where: string,
) {
  if (typeof value === "string") return value;
  const id = refOf(value) ?? "";
  const bucket = resourcesOfType(template, "AWS::S3::Bucket").find(([b]) => b === id)?.[1];
  const name = options.bucketNames[id] ?? bucket?.BucketName;
  if (typeof name !== "string")
    throw new Error(`${where}: no name for bucket ${JSON.stringify(value)}`);
  return name;
}

/** S3 names a configuration that has no Id itself; a stable one here, from where it was read. */
const configurationId = (where: string) =>
  createHash("sha256").update(where).digest("base64").slice(0, 32);

const ruleList = (rules: unknown) =>
  (Array.isArray(rules) ? rules : []).filter(isRecord).map((r) => ({
    name: String(r.Name).toLowerCase(),
    value: String(r.Value),
  }));

/** Configurations other than Lambda's would be dropped silently here, so they are refused. */
function refuseUnwired(config: Record<string, unknown>, keys: string[], where: string) {
  for (const key of Object.keys(config).filter((k) => !keys.includes(k))) {
    throw new Error(`${where}: ${key} is not wired`);
  }
}

/** CDK's custom resource, in the S3 API's shape (LambdaFunctionConfigurations). */
function fromCustomResources(template: Template, options: NotificationOptions): Configuration[] {
  return resourcesOfType(template, "Custom::S3BucketNotifications").flatMap(([id, props]) => {
    const config = isRecord(props.NotificationConfiguration) ? props.NotificationConfiguration : {};
    refuseUnwired(config, ["LambdaFunctionConfigurations"], id);
    const bucket = bucketName(template, props.BucketName, options, id);
    const list = Array.isArray(config.LambdaFunctionConfigurations)
      ? config.LambdaFunctionConfigurations
      : [];
    return list.filter(isRecord).map((c, i) => {
      const filter = isRecord(c.Filter) && isRecord(c.Filter.Key) ? c.Filter.Key.FilterRules : [];
      return {
        bucket,
        id: typeof c.Id === "string" ? c.Id : configurationId(`${id}/${i}`),
        events: (Array.isArray(c.Events) ? c.Events : []).map(String),
        rules: ruleList(filter),
        functionId: functionOf(template, c.LambdaFunctionArn, `${id} configuration ${i}`),
      };
    });
  });
}

/** AWS::S3::Bucket's own, in CloudFormation's shape (LambdaConfigurations, S3Key.Rules). */
function fromBuckets(template: Template, options: NotificationOptions): Configuration[] {
  return resourcesOfType(template, "AWS::S3::Bucket").flatMap(([id, props]) => {
    const config = props.NotificationConfiguration;
    if (!isRecord(config)) return [];
    refuseUnwired(config, ["LambdaConfigurations"], id);
    const bucket = bucketName(template, { Ref: id }, options, id);
    const list = Array.isArray(config.LambdaConfigurations) ? config.LambdaConfigurations : [];
    return list.filter(isRecord).map((c, i) => {
      const filter = isRecord(c.Filter) && isRecord(c.Filter.S3Key) ? c.Filter.S3Key.Rules : [];
      return {
        bucket,
        id: configurationId(`${id}/${i}`),
        events: [String(c.Event)],
        rules: ruleList(filter),
        functionId: functionOf(template, c.Function, `${id} configuration ${i}`),
      };
    });
  });
}

/**
 * The key as S3 writes it in the record: URL-encoded form-style (a space is "+"), the "/"s kept.
 * The characters encodeURIComponent leaves alone but form encoding does not (! ' ( ) ~) are
 * encoded too, as S3's records show them (a "(" arrives as %28).
 */
export function encodeKey(key: string): string {
  return encodeURIComponent(key)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+")
    .replace(/%2F/g, "/");
}

function passes(config: Configuration, eventName: string, key: string): boolean {
  const event = `s3:ObjectCreated:${eventName}`;
  if (!config.events.includes(event) && !config.events.includes("s3:ObjectCreated:*")) return false;
  return config.rules.every((rule) =>
    rule.name === "prefix" ? key.startsWith(rule.value) : key.endsWith(rule.value),
  );
}

export class BucketNotifications {
  readonly #configurations: Configuration[];
  readonly #invokeAsync: InvokeAsync;
  readonly #region: string;
  #sequence = 0n;

  constructor(template: Template, invokeAsync: InvokeAsync, options: NotificationOptions) {
    this.#configurations = [
      ...fromCustomResources(template, options),
      ...fromBuckets(template, options),
    ];
    for (const config of this.#configurations) {
      const unknown = config.rules.find((r) => r.name !== "prefix" && r.name !== "suffix");
      if (unknown)
        throw new Error(`Bucket ${config.bucket}: filter rule ${unknown.name} is not wired`);
    }
    this.#invokeAsync = invokeAsync;
    this.#region = options.region;
  }

  /** Notifies the functions the object's creation concerns; returns how many. */
  objectCreated(input: ObjectCreated): number {
    const configs = this.#configurations.filter(
      (c) => c.bucket === input.bucket && passes(c, input.eventName, input.key),
    );
    for (const config of configs) this.#invokeAsync(config.functionId, this.#record(config, input));
    return configs.length;
  }

  /** A hex string that grows with each event, as S3's sequencer does for a key's events. */
  #sequencer(): string {
    this.#sequence += 1n;
    const value = BigInt(Date.now()) * 1_000_000n + this.#sequence;
    return value.toString(16).toUpperCase().padStart(18, "0");
  }

  #record(config: Configuration, input: ObjectCreated) {
    const object = {
      key: encodeKey(input.key),
      size: input.size,
      ...(input.eTag === undefined ? {} : { eTag: input.eTag.replace(/"/g, "") }),
      sequencer: this.#sequencer(),
    };
    const record = {
      eventVersion: "2.1",
      eventSource: "aws:s3",
      awsRegion: this.#region,
      eventTime: new Date().toISOString(),
      eventName: `ObjectCreated:${input.eventName}`,
      userIdentity: { principalId: "AWS:REHEARSAL" },
      requestParameters: { sourceIPAddress: "127.0.0.1" },
      responseElements: {
        "x-amz-request-id": randomBytes(8).toString("hex").toUpperCase(),
        "x-amz-id-2": randomBytes(48).toString("base64"),
      },
      s3: {
        s3SchemaVersion: "1.0",
        configurationId: config.id,
        bucket: {
          name: config.bucket,
          ownerIdentity: { principalId: "REHEARSAL" },
          arn: `arn:aws:s3:::${config.bucket}`,
        },
        object,
      },
    };
    return { Records: [record] };
  }
}

/**
 * The synthesized template as the rehearsal runs it: every resource gets the physical name and
 * ARN CloudFormation would give it in one account and region, and every value the functions and
 * policies carry (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, the pseudo parameters) is resolved to the
 * text AWS would hand them. An intrinsic this module does not know throws, naming it: a value the
 * rehearsal guessed would prove nothing.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
}

export interface TemplateJson {
  Resources: Record<string, Resource>;
  [section: string]: unknown;
}

export interface Account {
  partition: string;
  region: string;
  accountId: string;
  stackName: string;
}

/** CDK's logical ids end in 8 hex digits of hash; names read better without them. */
function shortId(logicalId: string): string {
  return logicalId.replace(/[0-9A-F]{8}$/, "");
}

/** The property a resource is named by, when the template names it. */
const NAME_PROPERTY: Record<string, string> = {
  "AWS::DynamoDB::Table": "TableName",
  "AWS::S3::Bucket": "BucketName",
  "AWS::Events::EventBus": "Name",
  "AWS::Lambda::Function": "FunctionName",
  "AWS::StepFunctions::StateMachine": "StateMachineName",
  "AWS::IAM::Role": "RoleName",
  "AWS::SSM::Parameter": "Name",
  "AWS::SNS::Topic": "TopicName",
  "AWS::Logs::LogGroup": "LogGroupName",
};

export class ResolvedTemplate {
  readonly resources: Record<string, Resource>;
  readonly #names = new Map<string, string>();
  /** APIs served here: their `ApiEndpoint` is the local server's URL, not execute-api's. */
  readonly #endpoints = new Map<string, string>();
  readonly #functionUrls = new Map<string, string>();

  constructor(
    template: TemplateJson,
    readonly account: Account,
  ) {
    this.resources = template.Resources;
  }

  /** The resource's physical name: the template's, else one as CloudFormation makes (stack-id-suffix). */
  nameOf(logicalId: string): string {
    const known = this.#names.get(logicalId);
    if (known !== undefined) return known;
    const resource = this.require(logicalId);
    const property = NAME_PROPERTY[resource.Type];
    const given = property === undefined ? undefined : resource.Properties?.[property];
    const generated = `${this.account.stackName}-${shortId(logicalId)}-rehearsal`;
    // S3 bucket names are lower case; CloudFormation lower-cases the names it makes for them.
    const name =
      given === undefined
        ? resource.Type === "AWS::S3::Bucket"
          ? generated.toLowerCase()
          : generated
        : this.string(given);
    this.#names.set(logicalId, name);
    return name;
  }

  require(logicalId: string): Resource {
    const resource = this.resources[logicalId];
    if (resource === undefined) throw new Error(`The template has no resource ${logicalId}.`);
    return resource;
  }

  /** Logical ids of the resources of one type. */
  ofType(type: string): string[] {
    return Object.entries(this.resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id);
  }

  arnOf(logicalId: string): string {
    const { partition, region, accountId } = this.account;
    const type = this.require(logicalId).Type;
    const name = this.nameOf(logicalId);
    const arn = (service: string, resource: string, regional = true) =>
      `arn:${partition}:${service}:${regional ? region : ""}:${regional ? accountId : ""}:${resource}`;
    switch (type) {
      case "AWS::DynamoDB::Table":
        return arn("dynamodb", `table/${name}`);
      case "AWS::S3::Bucket":
        return arn("s3", name, false);
      case "AWS::Events::EventBus":
        return arn("events", `event-bus/${name}`);
      case "AWS::Events::Rule":
        return arn("events", `rule/${name}`);
      case "AWS::Lambda::Function":
        return arn("lambda", `function:${name}`);
      case "AWS::StepFunctions::StateMachine":
        return arn("states", `stateMachine:${name}`);
      case "AWS::SNS::Topic":
        return arn("sns", name);
      case "AWS::IAM::Role":
        return `arn:${partition}:iam::${accountId}:role/${name}`;
      case "AWS::Lambda::LayerVersion":
        return arn("lambda", `layer:${name}:1`);
      default:
        throw new Error(`No ARN known for ${logicalId} (${type}).`);
    }
  }

  /** What `Ref` answers for a resource: its name, or its ARN where CloudFormation says so. */
  ref(logicalId: string): string {
    const { partition, region, accountId } = this.account;
    const pseudo: Record<string, string> = {
      "AWS::Partition": partition,
      "AWS::Region": region,
      "AWS::AccountId": accountId,
      "AWS::StackName": this.account.stackName,
      "AWS::URLSuffix": "amazonaws.com",
    };
    const known = pseudo[logicalId];
    if (known !== undefined) return known;
    const type = this.require(logicalId).Type;
    if (
      type === "AWS::StepFunctions::StateMachine" ||
      type === "AWS::SNS::Topic" ||
      type === "AWS::Lambda::LayerVersion"
    )
      return this.arnOf(logicalId);
    return this.nameOf(logicalId);
  }

  getAtt(logicalId: string, attribute: string): string {
    if (attribute === "Arn") return this.arnOf(logicalId);
    if (attribute === "Name" || attribute === "TableName") return this.nameOf(logicalId);
    if (attribute === "FunctionUrl") {
      const url = this.#functionUrls.get(logicalId);
      if (url === undefined)
        throw new Error(`Function URL ${logicalId} is not served: the stage starts it first.`);
      return url;
    }
    if (attribute === "ApiEndpoint")
      return (
        this.#endpoints.get(logicalId) ??
        `https://${this.nameOf(logicalId)}.execute-api.${this.account.region}.amazonaws.com`
      );
    throw new Error(`Fn::GetAtt ${logicalId}.${attribute} is not known to the rehearsal.`);
  }

  /** The Function URL `logicalId` is served at `url` on this machine: its `FunctionUrl` resolves to it. */
  serveFunctionUrl(logicalId: string, url: string): void {
    this.#functionUrls.set(logicalId, url);
  }

  /** The API `logicalId` is served at `url` on this machine: its `ApiEndpoint` resolves to it. */
  serveApi(logicalId: string, url: string): void {
    this.#endpoints.set(logicalId, url);
  }

  /** A template value with every intrinsic resolved. */
  resolve(value: Json): Json {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    const entries = Object.entries(value);
    const [first] = entries;
    if (entries.length === 1 && first !== undefined && /^(Ref|Fn::)/.test(first[0]))
      return this.intrinsic(first[0], first[1]);
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v)]));
  }

  /** A value that must come out as text (an environment variable, a name, an ARN). */
  string(value: Json): string {
    const resolved = this.resolve(value);
    if (typeof resolved !== "string")
      throw new Error(`Expected text, got ${JSON.stringify(resolved)}.`);
    return resolved;
  }

  private intrinsic(name: string, args: Json): Json {
    switch (name) {
      case "Ref":
        return this.ref(String(args));
      case "Fn::GetAtt": {
        const [id, attribute] = Array.isArray(args) ? args : String(args).split(".");
        return this.getAtt(String(id), String(attribute));
      }
      case "Fn::Join": {
        const [separator, parts] = args as [string, Json[]];
        return parts.map((part) => this.string(part)).join(separator);
      }
      case "Fn::Sub":
        return this.sub(args);
      case "Fn::Select": {
        const [index, list] = args as [number, Json];
        return (this.resolve(list) as Json[])[Number(index)] ?? null;
      }
      case "Fn::Split": {
        const [separator, text] = args as [string, Json];
        return this.string(text).split(separator);
      }
      default:
        throw new Error(`The rehearsal does not know the intrinsic ${name}.`);
    }
  }

  private sub(args: Json): string {
    const [text, vars]: [Json, Record<string, Json>] = Array.isArray(args)
      ? (args as [string, Record<string, Json>])
      : [args, {}];
    return String(text).replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      const given = vars[name];
      if (given !== undefined) return this.string(given);
      const [id = "", attribute] = name.split(".");
      return attribute === undefined ? this.ref(id) : this.getAtt(id, attribute);
    });
  }

  /** A `{"Fn::GetAtt": [id, "Arn"]}` or `{"Ref": id}` value's logical id. */
  static logicalIdOf(value: Json): string {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const att = value["Fn::GetAtt"];
      if (Array.isArray(att)) return String(att[0]);
      if (typeof value.Ref === "string") return value.Ref;
    }
    throw new Error(`Not a reference to a resource: ${JSON.stringify(value)}.`);
  }
}

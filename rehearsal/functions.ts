/**
 * reelay's functions and their roles as the template declares them: handler, bundle, memory,
 * timeout, environment (resolved) and every policy statement attached to the function's role.
 */
import { join } from "node:path";
import type { PolicyDocument, Role } from "./iam/gate.ts";
import { type Json, ResolvedTemplate } from "./template.ts";

export interface TemplateFunction {
  logicalId: string;
  name: string;
  arn: string;
  /** `functions/api.handler`: the file `functions/api.mjs` in the bundle, its export `handler`. */
  handler: string;
  /** The bundle's folder: the cloud assembly's asset the function's Code names. */
  codeDir: string;
  /** Each layer's folder, which Lambda unpacks under /opt. */
  layerDirs: string[];
  environment: Record<string, string>;
  memoryMb: number;
  timeoutS: number;
  tracing: boolean;
  roleLogicalId: string;
}

/** The asset folder a `Code` or `Content` property names (`<hash>.zip` is `asset.<hash>`). */
function assetDir(assetsDir: string, code: Json | undefined, owner: string): string {
  const key = (code as { S3Key?: unknown } | undefined)?.S3Key;
  if (typeof key !== "string" || !key.endsWith(".zip"))
    throw new Error(`${owner} has no asset code the rehearsal can run (${JSON.stringify(code)}).`);
  return join(assetsDir, `asset.${key.slice(0, -".zip".length)}`);
}

/** reelay's own functions (handlers under functions/), not CDK's or SST's custom-resource providers. */
export function templateFunctions(rt: ResolvedTemplate, assetsDir: string): TemplateFunction[] {
  return rt
    .ofType("AWS::Lambda::Function")
    .filter((id) => String(rt.require(id).Properties?.Handler ?? "").startsWith("functions/"))
    .map((logicalId) => {
      const p = rt.require(logicalId).Properties ?? {};
      const variables = (p.Environment as { Variables?: Record<string, Json> } | undefined)
        ?.Variables;
      const layers = (p.Layers as Json[] | undefined) ?? [];
      return {
        logicalId,
        name: rt.nameOf(logicalId),
        arn: rt.arnOf(logicalId),
        handler: String(p.Handler),
        codeDir: assetDir(assetsDir, p.Code, logicalId),
        layerDirs: layers.map((layer) => {
          const id = ResolvedTemplate.logicalIdOf(layer);
          return assetDir(assetsDir, rt.require(id).Properties?.Content, id);
        }),
        environment: Object.fromEntries(
          Object.entries(variables ?? {}).map(([name, value]) => [name, rt.string(value)]),
        ),
        // Lambda's defaults when the template gives none.
        memoryMb: Number(p.MemorySize ?? 128),
        timeoutS: Number(p.Timeout ?? 3),
        tracing: (p.TracingConfig as { Mode?: string } | undefined)?.Mode === "Active",
        roleLogicalId: ResolvedTemplate.logicalIdOf(p.Role as Json),
      };
    });
}

/** A role with the statements of every AWS::IAM::Policy attached to it and its inline policies. */
export function templateRole(rt: ResolvedTemplate, roleLogicalId: string): Role {
  const policies: Role["policies"] = [];
  for (const id of rt.ofType("AWS::IAM::Policy")) {
    const p = rt.require(id).Properties ?? {};
    const roles = ((p.Roles as Json[] | undefined) ?? []).map((r) =>
      ResolvedTemplate.logicalIdOf(r),
    );
    if (roles.includes(roleLogicalId))
      policies.push({
        name: String(p.PolicyName ?? id),
        document: rt.resolve(p.PolicyDocument as Json) as unknown as PolicyDocument,
      });
  }
  const inline =
    (rt.require(roleLogicalId).Properties?.Policies as
      | { PolicyName: string; PolicyDocument: Json }[]
      | undefined) ?? [];
  for (const policy of inline)
    policies.push({
      name: policy.PolicyName,
      document: rt.resolve(policy.PolicyDocument) as unknown as PolicyDocument,
    });
  return { name: rt.nameOf(roleLogicalId), arn: rt.arnOf(roleLogicalId), policies };
}

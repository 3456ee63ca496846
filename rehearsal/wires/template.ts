/**
 * Reading the template as CloudFormation would: its resources by type, and the intrinsic
 * references the wires meet (Ref, Fn::GetAtt, the Fn::Join CDK writes a route's target with).
 * Anything else throws, naming what it met, so a wire is never silently left unconnected.
 */
import type { Template } from "./types.ts";

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function resourcesOf(template: Template): Record<string, Resource> {
  const resources = template.Resources;
  if (!isRecord(resources)) throw new Error("The template has no Resources");
  return resources as Record<string, Resource>;
}

/** The resources of one type, as [logicalId, properties] pairs. */
export function resourcesOfType(
  template: Template,
  type: string,
): [string, Record<string, unknown>][] {
  return Object.entries(resourcesOf(template))
    .filter(([, resource]) => resource.Type === type)
    .map(([id, resource]) => [id, resource.Properties ?? {}]);
}

function typeOf(template: Template, logicalId: string): string | undefined {
  return resourcesOf(template)[logicalId]?.Type;
}

/** `{ Ref: id }` as the logical id it names. */
export function refOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.Ref === "string" ? value.Ref : undefined;
}

/** `{ "Fn::GetAtt": [id, attribute] }` (or its "id.attribute" short form) as its two parts. */
function getAttOf(value: unknown): [string, string] | undefined {
  if (!isRecord(value)) return undefined;
  const att = value["Fn::GetAtt"];
  if (typeof att === "string") {
    const dot = att.indexOf(".");
    return dot > 0 ? [att.slice(0, dot), att.slice(dot + 1)] : undefined;
  }
  if (Array.isArray(att) && typeof att[0] === "string" && typeof att[1] === "string") {
    return [att[0], att[1]];
  }
  return undefined;
}

/**
 * The logical id of the Lambda function an ARN reference names: `Fn::GetAtt [id, "Arn"]`, which is
 * how CDK points API integrations, rule targets and bucket notifications at a function.
 */
export function functionOf(template: Template, value: unknown, where: string): string {
  const att = getAttOf(value);
  if (att?.[1] !== "Arn") {
    throw new Error(`${where}: ${JSON.stringify(value)} is not a Fn::GetAtt of a function's Arn`);
  }
  const type = typeOf(template, att[0]);
  if (type !== "AWS::Lambda::Function") {
    throw new Error(`${where}: ${att[0]} is ${type ?? "not in the template"}, not a function`);
  }
  return att[0];
}

/**
 * The integration a route's Target names: CDK writes it as
 * `Fn::Join ["", ["integrations/", { Ref: integrationId }]]`; a plain "integrations/id" string is
 * what the API itself would store.
 */
export function integrationOf(target: unknown): string | undefined {
  if (typeof target === "string") return target.replace(/^integrations\//, "");
  if (!isRecord(target)) return undefined;
  const join = target["Fn::Join"];
  if (!Array.isArray(join) || join[0] !== "" || !Array.isArray(join[1])) return undefined;
  const [prefix, ref] = join[1] as unknown[];
  return prefix === "integrations/" ? refOf(ref) : undefined;
}

/**
 * A deploy over a running stage, as CloudFormation updates the stack in place: every function
 * keeps its name and ARN and runs the new template's bundle with the new template's environment
 * (each function's instances started again), the roles' policies become the new template's, and a
 * StartExecution from then on runs the new definition while the executions already running keep
 * the one they started with. An invocation under way on the old code finishes there, as Lambda
 * lets it. The HTTP API, the bus's rules, the bucket's notification and the schedules are kept:
 * a template that changes them (or any resource other than those above) is refused, named, rather
 * than rehearsed as if it had been deployed.
 */
import type { Assembly } from "../assembly.ts";
import { templateFunctions } from "../functions.ts";
import { linkLayers, machineRoles, type RehearsedFunction, type Stage } from "../stage.ts";
import { ResolvedTemplate, type TemplateJson } from "../template.ts";
import { startFunctionUrls } from "../wires/function-url.ts";

/** The resources a deploy here updates; every other one must be as the running stage has it. */
const UPDATED_TYPES = new Set([
  "AWS::Lambda::Function",
  "AWS::Lambda::LayerVersion",
  "AWS::Lambda::Url",
  "AWS::IAM::Role",
  "AWS::IAM::Policy",
  "AWS::StepFunctions::StateMachine",
]);

/**
 * Resources nothing in a stage runs, read only by people (a dashboard) or by CloudWatch (an alarm):
 * a change to them is deployed on AWS and needs no rehearsal here.
 */
const UNRUN_TYPES = new Set(["AWS::CloudWatch::Dashboard", "AWS::CloudWatch::Alarm"]);

export interface Deployed {
  /** Functions whose code and environment were swapped, by logical id. */
  updated: string[];
  added: string[];
  removed: string[];
  /** State machines whose definition changed (new executions only). */
  machines: string[];
}

/** The logical ids of resources other than UPDATED_TYPES and UNRUN_TYPES that differ between the templates. */
export function unrehearsedChanges(before: TemplateJson, after: TemplateJson): string[] {
  const ids = new Set([...Object.keys(before.Resources), ...Object.keys(after.Resources)]);
  return [...ids]
    .filter((id) => {
      const [a, b] = [before.Resources[id], after.Resources[id]];
      const type = a?.Type ?? b?.Type ?? "";
      if (UPDATED_TYPES.has(type) || UNRUN_TYPES.has(type)) return false;
      return JSON.stringify(a) !== JSON.stringify(b);
    })
    .sort();
}

/** The template resolved for the stage: its API and Function URLs at the addresses served here. */
async function resolvedFor(stage: Stage, template: TemplateJson): Promise<ResolvedTemplate> {
  const rt = new ResolvedTemplate(template, stage.account);
  for (const id of rt.ofType("AWS::ApiGatewayV2::Api")) rt.serveApi(id, stage.apiUrl);
  const invoke = async (id: string, event: unknown) => {
    const fn = stage.functions.find((f) => f.spec.logicalId === id || f.spec.arn === id);
    if (fn === undefined)
      return { ok: false as const, errorType: "ResourceNotFoundException", errorMessage: id };
    return (await fn.lambda.invoke(event)).result;
  };
  const region = { region: stage.account.region, accountId: stage.account.accountId };
  for (const url of await startFunctionUrls(template, invoke, region)) {
    stage.deployment.onClose(() => url.close());
    rt.serveFunctionUrl(url.logicalId, url.url);
  }
  return rt;
}

export async function deploy(stage: Stage, assembly: Assembly): Promise<Deployed> {
  const unrehearsed = unrehearsedChanges(stage.assembly.template, assembly.template);
  if (unrehearsed.length > 0)
    throw new Error(
      `The new template changes ${unrehearsed.join(", ")}; the rehearsal redeploys only functions, layers, roles, policies and state machines.`,
    );
  const template = structuredClone(assembly.template);
  const rt = await resolvedFor(stage, template);
  const specs = templateFunctions(rt, assembly.assetsDir);
  await linkLayers(specs.flatMap((s) => s.layerDirs));
  stage.deployment.adoptRoles(rt, [
    ...new Set([...specs.map((s) => s.roleLogicalId), ...machineRoles(rt)]),
  ]);
  const machines = stage.states.define(rt);
  const deployed: Deployed = { updated: [], added: [], removed: [], machines };
  const retired: RehearsedFunction[] = [];
  for (const spec of specs) {
    const started = stage.deployment.start(spec);
    const at = stage.functions.findIndex((f) => f.spec.logicalId === spec.logicalId);
    if (at < 0) {
      stage.functions.push(started);
      deployed.added.push(spec.logicalId);
    } else {
      retired.push(...stage.functions.splice(at, 1, started));
      deployed.updated.push(spec.logicalId);
    }
  }
  for (const fn of [...stage.functions])
    if (!specs.some((s) => s.logicalId === fn.spec.logicalId)) {
      retired.push(...stage.functions.splice(stage.functions.indexOf(fn), 1));
      deployed.removed.push(fn.spec.logicalId);
    }
  stage.template = rt;
  stage.assembly = { ...assembly, template };
  await Promise.all(
    retired.map(async (fn) => {
      await fn.lambda.idle();
      await fn.lambda.close();
    }),
  );
  return deployed;
}

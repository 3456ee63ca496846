/**
 * The template's scheduled rules (ScheduleExpression) and the "Scheduled Event" EventBridge hands
 * their targets. The rehearsal drives time itself, so the Scheduler fires only when told (tick);
 * each schedule's period is there for the caller to pace its ticks.
 * (docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html)
 */
import { randomUUID } from "node:crypto";
import { functionOf, isRecord, resourcesOfType } from "./template.ts";
import type { InvokeAsync, Template } from "./types.ts";

interface Schedule {
  /** The rule's logical id. */
  rule: string;
  /** The rule's name, as its ARN carries it: its Name property, else its logical id. */
  name: string;
  expression: string;
  periodMs: number;
  target: string;
  /** The target's constant Input, which EventBridge sends instead of the event. */
  input?: unknown;
}

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * rate(value unit): EventBridge takes the singular unit for 1 and the plural otherwise, and
 * refuses anything else; cron() is not implemented, and says so.
 */
export function periodOf(expression: string, where = "schedule"): number {
  if (expression.startsWith("cron(")) {
    throw new Error(`${where}: ${expression}: cron schedules are not implemented`);
  }
  const rate = /^rate\((\d+) (minute|hour|day)(s?)\)$/.exec(expression);
  const [, count, unit, plural] = rate ?? [];
  const value = Number(count);
  if (!unit || value < 1 || (value === 1) !== (plural === "")) {
    throw new Error(`${where}: ${expression} is not a valid schedule expression`);
  }
  return value * (UNIT_MS[unit] ?? 0);
}

function targetsOf(template: Template, rule: string, targets: unknown) {
  return (Array.isArray(targets) ? targets : []).filter(isRecord).map((t) => {
    const where = `Rule ${rule} target ${String(t.Id)}`;
    for (const unwired of ["InputPath", "InputTransformer"]) {
      if (unwired in t) throw new Error(`${where}: ${unwired} is not implemented`);
    }
    const target = functionOf(template, t.Arn, where);
    return typeof t.Input === "string"
      ? { target, input: JSON.parse(t.Input) as unknown }
      : { target };
  });
}

export function schedules(template: Template): Schedule[] {
  return resourcesOfType(template, "AWS::Events::Rule")
    .filter(
      ([, props]) => typeof props.ScheduleExpression === "string" && props.State !== "DISABLED",
    )
    .flatMap(([rule, props]) => {
      const expression = String(props.ScheduleExpression);
      const periodMs = periodOf(expression, `Rule ${rule}`);
      const name = typeof props.Name === "string" ? props.Name : rule;
      return targetsOf(template, rule, props.Targets).map((t) => ({
        rule,
        name,
        expression,
        periodMs,
        ...t,
      }));
    });
}

interface ScheduleOptions {
  region: string;
  accountId: string;
  time?: Date;
}

/** The event a scheduled rule hands its targets. */
export function scheduledEvent(ruleName: string, options: ScheduleOptions) {
  const time = options.time ?? new Date();
  return {
    version: "0",
    id: randomUUID(),
    "detail-type": "Scheduled Event",
    source: "aws.events",
    account: options.accountId,
    time: `${time.toISOString().slice(0, 19)}Z`,
    region: options.region,
    resources: [`arn:aws:events:${options.region}:${options.accountId}:rule/${ruleName}`],
    detail: {},
  };
}

interface SchedulerOptions {
  region: string;
  accountId: string;
  /** Deployed rule names, by logical id, for the rule ARN in the event. */
  ruleNames?: Record<string, string>;
}

export class Scheduler {
  readonly #schedules: Schedule[];
  readonly #invokeAsync: InvokeAsync;
  readonly #options: SchedulerOptions;

  constructor(template: Template, invokeAsync: InvokeAsync, options: SchedulerOptions) {
    this.#schedules = schedules(template);
    this.#invokeAsync = invokeAsync;
    this.#options = options;
  }

  /** Fires every schedule once, now; one event per rule, shared by its targets as in AWS. */
  tick(time = new Date()): number {
    const events = new Map<string, ReturnType<typeof scheduledEvent>>();
    for (const schedule of this.#schedules) {
      const name = this.#options.ruleNames?.[schedule.rule] ?? schedule.name;
      const event = events.get(schedule.rule) ?? scheduledEvent(name, { ...this.#options, time });
      events.set(schedule.rule, event);
      this.#invokeAsync(schedule.target, schedule.input ?? event);
    }
    return this.#schedules.length;
  }
}

/**
 * The template's EventBridge rules as a local bus: PutEvents as EventBridge answers it (entry
 * checks, size limit), the event it delivers, and each enabled rule on that bus whose pattern
 * matches handing the event to its Lambda targets asynchronously.
 * (docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEvents.html)
 */
import { randomUUID } from "node:crypto";
import { compilePattern, type Pattern } from "./pattern.ts";
import { functionOf, isRecord, refOf, resourcesOfType } from "./template.ts";
import type { InvokeAsync, Template } from "./types.ts";

/** PutEvents' size limit, over the entries as eb-putevent-size.html counts them. */
const MAX_REQUEST_BYTES = 256 * 1024;
/** EventBridge bills custom events in 64 KB chunks (usage type Event(-64K-Chunks)). */
const BILLING_CHUNK_BYTES = 64 * 1024;
const MAX_ENTRIES = 10;

interface BusOptions {
  region: string;
  accountId: string;
  /** Deployed names of the template's buses, by logical id (else the bus's Name property). */
  busNames?: Record<string, string>;
}

interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Resources?: string[];
  /** A Date, epoch seconds (as the SDK sends it), or an ISO string. */
  Time?: Date | number | string;
}

interface PutEventsResult {
  FailedEntryCount: number;
  Entries: { EventId?: string; ErrorCode?: string; ErrorMessage?: string }[];
}

/** A request PutEvents refuses whole, as the SDK would throw it (name = the AWS error code). */
export class EventBridgeError extends Error {
  constructor(code: string, message: string) {
    super(message);
    this.name = code;
  }
}

interface Rule {
  logicalId: string;
  bus: string;
  matches: Pattern;
  targets: { functionId: string; input?: unknown }[];
}

/** The deployed name of each bus the template declares, by logical id. */
function busNames(template: Template, options: BusOptions): Map<string, string> {
  const names = new Map<string, string>();
  for (const [id, props] of resourcesOfType(template, "AWS::Events::EventBus")) {
    const name = options.busNames?.[id] ?? props.Name;
    if (typeof name === "string") names.set(id, name);
  }
  return names;
}

/** A bus as a rule or an entry names it: absent (default), a name, an ARN, or a Ref. */
function busNameOf(value: unknown, names: Map<string, string>, where: string): string {
  if (value === undefined) return "default";
  if (typeof value === "string")
    return value.replace(/^arn:[^:]+:events:[^:]*:\d*:event-bus\//, "");
  const name = names.get(refOf(value) ?? "");
  if (name === undefined) throw new Error(`${where}: cannot name the bus ${JSON.stringify(value)}`);
  return name;
}

function targetOf(template: Template, target: unknown, where: string) {
  if (!isRecord(target)) throw new Error(`${where}: a target is an object`);
  const at = `${where} target ${String(target.Id)}`;
  for (const unwired of ["InputPath", "InputTransformer"]) {
    if (unwired in target) throw new Error(`${at}: ${unwired} is not implemented`);
  }
  const functionId = functionOf(template, target.Arn, at);
  return typeof target.Input === "string"
    ? { functionId, input: JSON.parse(target.Input) as unknown }
    : { functionId };
}

function readRules(template: Template, names: Map<string, string>): Rule[] {
  return resourcesOfType(template, "AWS::Events::Rule")
    .filter(([, props]) => props.EventPattern !== undefined && props.State !== "DISABLED")
    .map(([logicalId, props]) => {
      const where = `Rule ${logicalId}`;
      const raw = props.EventPattern;
      const pattern: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
      const targets = Array.isArray(props.Targets) ? props.Targets : [];
      return {
        logicalId,
        bus: busNameOf(props.EventBusName, names, where),
        matches: compilePattern(pattern, where),
        targets: targets.map((t) => targetOf(template, t, where)),
      };
    });
}

const utf8 = (text: string | undefined) => (text === undefined ? 0 : Buffer.byteLength(text));

/** An entry's size as EventBridge documents it: Time counts 14 bytes, the strings their UTF-8. */
function entrySize(entry: PutEventsEntry): number {
  const resources = (entry.Resources ?? []).reduce((sum, r) => sum + utf8(r), 0);
  const time = entry.Time === undefined ? 0 : 14;
  return time + utf8(entry.Source) + utf8(entry.DetailType) + utf8(entry.Detail) + resources;
}

/** EventBridge's own wording for an entry it refuses (as LocalStack's snapshots of AWS record). */
function entryError(
  entry: PutEventsEntry,
): { ErrorCode: string; ErrorMessage: string } | undefined {
  for (const field of ["Source", "DetailType", "Detail"] as const) {
    if (!entry[field]) {
      const reason = `${field} is a required argument.`;
      return {
        ErrorCode: "InvalidArgument",
        ErrorMessage: `Parameter ${field} is not valid. Reason: ${reason}`,
      };
    }
  }
  try {
    if (isRecord(JSON.parse(entry.Detail ?? ""))) return undefined;
  } catch {
    // falls through to MalformedDetail
  }
  return { ErrorCode: "MalformedDetail", ErrorMessage: "Detail is malformed." };
}

/** The event's time as EventBridge writes it: ISO 8601 to the second. */
function eventTime(time: PutEventsEntry["Time"]): string {
  const date =
    time === undefined
      ? new Date()
      : typeof time === "number"
        ? new Date(time * 1000)
        : new Date(time);
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** An event as the bus took it: which bus, its detail-type and its detail. */
export interface PublishedEvent {
  bus: string;
  "detail-type": string | undefined;
  detail: unknown;
}

export class EventBus {
  readonly #rules: Rule[];
  readonly #buses: Map<string, string>;
  readonly #invokeAsync: InvokeAsync;
  readonly #options: BusOptions;
  #published = 0;
  #chunks = 0;
  #largest = { bytes: 0, where: "no entry" };
  readonly #matched: { rule: string; target: string; eventId: string }[] = [];
  readonly #unknownBus: { bus: string; eventId: string }[] = [];
  readonly #accepted: PublishedEvent[] = [];

  constructor(template: Template, invokeAsync: InvokeAsync, options: BusOptions) {
    this.#buses = busNames(template, options);
    this.#rules = readRules(template, this.#buses);
    this.#invokeAsync = invokeAsync;
    this.#options = options;
  }

  putEvents(input: { Entries: PutEventsEntry[] }): PutEventsResult {
    const { Entries } = input;
    if (Entries.length < 1 || Entries.length > MAX_ENTRIES) {
      throw new EventBridgeError(
        "ValidationException",
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`,
      );
    }
    // Measured before the request is judged: an entry PutEvents refuses is the largest one seen.
    for (const entry of Entries) {
      const bytes = entrySize(entry);
      if (bytes > this.#largest.bytes)
        this.#largest = { bytes, where: `a "${entry.DetailType ?? ""}" entry` };
    }
    if (Entries.reduce((sum, e) => sum + entrySize(e), 0) > MAX_REQUEST_BYTES) {
      throw new EventBridgeError(
        "ValidationException",
        "Total size of the entries in the request is over the limit.",
      );
    }
    const results = Entries.map((entry) => entryError(entry) ?? { EventId: this.#publish(entry) });
    return { FailedEntryCount: results.filter((r) => "ErrorCode" in r).length, Entries: results };
  }

  /** Events accepted onto a bus, as PutEvents counts them. */
  events(): number {
    return this.#published;
  }

  /** The largest entry PutEvents was given (an entry may be 256 KB), by its detail-type. */
  largestEntry(): { bytes: number; where: string } {
    return { ...this.#largest };
  }

  /** The same events as billed: each 64 KB chunk of an entry is one event. */
  billedEvents(): number {
    return this.#chunks;
  }

  matched(): { rule: string; target: string; eventId: string }[] {
    return [...this.#matched];
  }

  /** Every event accepted onto a bus, in order, as a rule's target would receive it. */
  published(): PublishedEvent[] {
    return [...this.#accepted];
  }

  /**
   * Events sent to a bus the template does not hold: EventBridge accepts them with an id and
   * drops them (aws/aws-cli#9186), so here they are only noted.
   */
  unknownBusEvents(): { bus: string; eventId: string }[] {
    return [...this.#unknownBus];
  }

  #publish(entry: PutEventsEntry): string {
    const id = randomUUID();
    const bus = busNameOf(entry.EventBusName, this.#buses, "PutEvents");
    this.#published++;
    this.#chunks += Math.max(1, Math.ceil(entrySize(entry) / BILLING_CHUNK_BYTES));
    const event = {
      version: "0",
      id,
      "detail-type": entry.DetailType,
      source: entry.Source,
      account: this.#options.accountId,
      time: eventTime(entry.Time),
      region: this.#options.region,
      resources: entry.Resources ?? [],
      detail: JSON.parse(entry.Detail ?? "{}") as unknown,
    };
    this.#accepted.push({ bus, "detail-type": event["detail-type"], detail: event.detail });
    const rules = this.#rules.filter((rule) => rule.bus === bus);
    const known = bus === "default" || [...this.#buses.values()].includes(bus);
    if (!known) this.#unknownBus.push({ bus, eventId: id });
    for (const rule of rules.filter((r) => r.matches(event))) {
      for (const target of rule.targets) {
        this.#matched.push({ rule: rule.logicalId, target: target.functionId, eventId: id });
        this.#invokeAsync(target.functionId, target.input ?? event);
      }
    }
    return id;
  }
}

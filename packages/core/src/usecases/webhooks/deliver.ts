/**
 * One attempt of one message to one subscriber. Every attempt carries the message's webhook-id and
 * is signed afresh with its own timestamp (receivers reject stale timestamps). What came back is
 * kept for the delivery log: the status, the time taken and the answer's first 1 KB, with the
 * subscriber's secret cut out should a receiver echo it.
 */
import { ReelayError } from "../../domain/errors.ts";
import type { DeliveryAttempt } from "../../domain/webhooks/delivery.ts";
import { signWebhook } from "../../domain/webhooks/sign.ts";
import type { WebhookMessage } from "../../domain/webhooks/payload.ts";
import { inSpan, jobAttributes } from "../../domain/tracing.ts";

/** Per-attempt limit on the whole HTTP exchange. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the log keeps. */
const RESPONSE_KEPT_BYTES = 1024;

export interface AttemptIo {
  /** The deployment's guarded fetch (domain/net/policy.ts webhookFetchPolicy); its refusals are final. */
  fetch: typeof globalThis.fetch;
  now: () => Date;
  timeoutMs?: number;
  /** The attempt's span: a child of `parent` (Delivery.traceparent), naming the subscriber. */
  trace?: { parent: string | undefined; subscriber: string };
}

export interface AttemptOutcome {
  attempt: DeliveryAttempt;
  delivered: boolean;
  /** The guard refused the URL itself (url_forbidden): no later attempt can go better. */
  final: boolean;
}

/** Where an attempt goes and the secrets that sign it (more than one during a rotation). */
export interface SigningTarget {
  url: string;
  secrets: readonly string[];
}

/** The first 1 KB of an answer as text, without the secrets. */
async function answerText(response: Response, secrets: readonly string[]): Promise<string> {
  const bytes = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
  const text = new TextDecoder().decode(bytes.subarray(0, RESPONSE_KEPT_BYTES));
  return secrets.reduce((kept, secret) => kept.split(secret).join("[secret]"), text);
}

function failureText(error: unknown): { error: string; final: boolean } {
  if (error instanceof ReelayError && !error.retryable)
    return { error: `${error.code}: ${error.message}`.slice(0, 200), final: true };
  return {
    error: error instanceof Error ? error.message.slice(0, 200) : String(error),
    final: false,
  };
}

/** One attempt, in its span (the job named by the event's jobId; the URL is never put on it). */
export function attemptDelivery(
  subscriber: SigningTarget,
  message: WebhookMessage,
  io: AttemptIo,
): Promise<AttemptOutcome> {
  const attributes = {
    ...jobAttributes({ id: jobIdOf(message) }),
    ...(io.trace === undefined ? {} : { "reelay.webhook.subscriber": io.trace.subscriber }),
  };
  return inSpan(
    "webhook",
    { kind: "client", parent: io.trace?.parent, attributes },
    async (span) => {
      const outcome = await attempt(subscriber, message, io);
      const { status } = outcome.attempt;
      if (status !== undefined) span.set({ "http.response.status_code": status });
      if (!outcome.delivered)
        span.fail({ code: status === undefined ? "webhook_unreachable" : `http_${status}` });
      return outcome;
    },
  );
}

/** The job an event is about (its detail's jobId); undefined for a batch's event. */
function jobIdOf(message: WebhookMessage): string | undefined {
  try {
    const jobId = (JSON.parse(message.body) as { data?: { jobId?: unknown } }).data?.jobId;
    return typeof jobId === "string" ? jobId : undefined;
  } catch {
    return undefined;
  }
}

async function attempt(
  subscriber: SigningTarget,
  message: WebhookMessage,
  io: AttemptIo,
): Promise<AttemptOutcome> {
  const started = io.now();
  const headers = signWebhook(
    subscriber.secrets,
    message.id,
    started.getTime() / 1000,
    message.body,
  );
  const at = started.toISOString();
  const latency = () => Math.max(0, io.now().getTime() - started.getTime());
  try {
    const response = await io.fetch(subscriber.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "reelay-webhooks", ...headers },
      body: message.body,
      redirect: "manual",
      signal: AbortSignal.timeout(io.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
    });
    const response1k = await answerText(response, subscriber.secrets);
    const delivered = response.status >= 200 && response.status < 300;
    return {
      attempt: { at, latencyMs: latency(), status: response.status, response: response1k },
      delivered,
      final: false,
    };
  } catch (error) {
    const failure = failureText(error);
    return {
      attempt: { at, latencyMs: latency(), error: failure.error },
      delivered: false,
      final: failure.final,
    };
  }
}

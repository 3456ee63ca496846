/**
 * One message to one subscriber, retried with exponential backoff. Every attempt carries the same
 * webhook-id and is signed afresh with its own timestamp (receivers reject stale timestamps).
 */
import { ReelayError } from "../errors.ts";
import { signWebhook } from "./sign.ts";
import type { WebhookSubscriber } from "./subscribers.ts";
import type { WebhookMessage } from "./payload.ts";

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait before the second try; doubled before each later one. */
  baseDelayMs: number;
  /** Per-attempt limit on the whole HTTP exchange. */
  timeoutMs: number;
}

/** 5 tries: waits of 1, 2, 4 and 8 s between them, about 15 s in all (fits one Lambda invocation). */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 1000, timeoutMs: 10_000 };

export interface DeliveryOptions {
  retry?: Partial<RetryPolicy>;
  /** The deployment's guarded fetch (net/policy.ts webhookFetchPolicy); its refusals are not retried. */
  fetch?: typeof globalThis.fetch;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  /** Why the last attempt failed: `HTTP <status>`, the network error's message, or the guard's refusal. */
  lastError?: string;
}

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function retryDelayMs(policy: RetryPolicy, failedAttempt: number): number {
  return policy.baseDelayMs * 2 ** (failedAttempt - 1);
}

/** Why an attempt failed, and whether trying again could help. */
interface Failure {
  message: string;
  /** The guard refused the URL itself (url_forbidden): no later attempt can go better. */
  final: boolean;
}

async function attempt(
  subscriber: WebhookSubscriber,
  message: WebhookMessage,
  options: Required<Omit<DeliveryOptions, "retry">>,
  timeoutMs: number,
): Promise<Failure | undefined> {
  const headers = signWebhook(
    subscriber.secret,
    message.id,
    options.now().getTime() / 1000,
    message.body,
  );
  try {
    const response = await options.fetch(subscriber.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "reelay-webhooks", ...headers },
      body: message.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    return response.status >= 200 && response.status < 300
      ? undefined
      : { message: `HTTP ${response.status}`, final: false };
  } catch (error) {
    if (error instanceof ReelayError && !error.retryable)
      return { message: `${error.code}: ${error.message}`.slice(0, 200), final: true };
    return {
      message: error instanceof Error ? error.message.slice(0, 200) : String(error),
      final: false,
    };
  }
}

export async function deliverWebhook(
  subscriber: WebhookSubscriber,
  message: WebhookMessage,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const io = {
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? (() => new Date()),
    sleep: options.sleep ?? sleepMs,
  };
  let failure: Failure | undefined;
  let tries = 0;
  while (tries < policy.attempts) {
    tries++;
    failure = await attempt(subscriber, message, io, policy.timeoutMs);
    if (failure === undefined) return { delivered: true, attempts: tries };
    if (failure.final) break;
    if (tries < policy.attempts) await io.sleep(retryDelayMs(policy, tries));
  }
  return {
    delivered: false,
    attempts: tries,
    ...(failure === undefined ? {} : { lastError: failure.message }),
  };
}

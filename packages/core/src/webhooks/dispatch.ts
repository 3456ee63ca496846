/** Fans an event (a job's end or a batch's) out to every subscriber; a subscriber that keeps failing gets a dead letter. */
import type { ReelayEvent } from "../events/types.ts";
import type { DeadLetterSink } from "./dead-letter.ts";
import { deliverWebhook, type DeliveryOptions, type DeliveryResult } from "./deliver.ts";
import { webhookMessage } from "./payload.ts";
import type { WebhookSubscriber } from "./subscribers.ts";

export interface DispatchOptions extends DeliveryOptions {
  deadLetters: DeadLetterSink;
}

export interface SubscriberOutcome extends DeliveryResult {
  url: string;
}

export async function dispatchWebhooks(
  event: ReelayEvent,
  subscribers: readonly WebhookSubscriber[],
  options: DispatchOptions,
): Promise<SubscriberOutcome[]> {
  const message = webhookMessage(event);
  const now = options.now ?? (() => new Date());
  return Promise.all(
    subscribers.map(async (subscriber) => {
      const result = await deliverWebhook(subscriber, message, options);
      if (!result.delivered) {
        await options.deadLetters.record({
          webhookId: message.id,
          url: subscriber.url,
          attempts: result.attempts,
          lastError: result.lastError ?? "unknown",
          failedAt: now().toISOString(),
          body: message.body,
        });
      }
      return { url: subscriber.url, ...result };
    }),
  );
}

/**
 * The local stack's delivery loop: each event is dispatched in the background, and `drain()` waits
 * for what is in flight, so a stop neither loses a retry midway nor hangs on a new one.
 */
export class WebhookDispatcher {
  readonly #subscribers: readonly WebhookSubscriber[];
  readonly #options: DispatchOptions;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #onError: (error: unknown) => void;

  constructor(
    subscribers: readonly WebhookSubscriber[],
    options: DispatchOptions & { onError?: (error: unknown) => void },
  ) {
    this.#subscribers = subscribers;
    this.#options = options;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** For EventSource.subscribe: never throws into the emitter. */
  readonly handle = (event: ReelayEvent): void => {
    if (this.#subscribers.length === 0) return;
    const work = dispatchWebhooks(event, this.#subscribers, this.#options).catch(this.#onError);
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  };

  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}

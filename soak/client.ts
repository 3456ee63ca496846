/**
 * The soak's client of the reelay API: plain fetch, as any user's. While the stack is down (killed,
 * restarting) a call is tried again until it answers; a submission keeps its X-Idempotency-Key on
 * every try, so a create whose answer was lost never makes a second job.
 */
const ATTEMPT_TIMEOUT_MS = 30_000;
/**
 * The longest pause between tries: a refused connection costs nothing to try again, and a call
 * waiting out a restart should go through soon after the stack answers.
 */
const MAX_PAUSE_MS = 500;

export class ApiClient {
  #stopped = false;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    /**
     * How long a call keeps trying while the stack does not answer: longer than a restart may take
     * on a loaded machine (stack.ts waits up to 180 s for one).
     */
    private readonly patienceMs = 240_000,
  ) {}

  /** Answers with status < 500, the body parsed as JSON; see text(). */
  async call(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any }> {
    const { status, text } = await this.text(method, path, options);
    return { status, body: text === "" ? undefined : JSON.parse(text) };
  }

  /** Answers with status < 500; network failures and 5xx are tried again until `patienceMs`. */
  async text(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; text: string }> {
    const until = Date.now() + this.patienceMs;
    let last = "";
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${this.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            "content-type": "application/json",
            ...options.headers,
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        const text = await response.text();
        if (response.status < 500) return { status: response.status, text };
        last = `HTTP ${response.status} ${text.slice(0, 300)}`;
      } catch (error) {
        last =
          error instanceof Error
            ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`
            : String(error);
      }
      if (this.#stopped) throw new Error(`${method} ${path}: the soak stopped (last: ${last})`);
      if (Date.now() > until)
        throw new Error(
          `${method} ${path} got no answer in ${this.patienceMs / 1000} s (${attempt} tries; last: ${last})`,
        );
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, 100 * attempt)));
    }
  }

  /** Calls in progress give up at their next try (the soak is ending). */
  stop(): void {
    this.#stopped = true;
  }

  /** Every job the API lists, following the cursor. */
  async listJobs(): Promise<any[]> {
    const jobs: any[] = [];
    let cursor: string | undefined;
    do {
      const query = `limit=100${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const { status, body } = await this.call("GET", `/v1/jobs?${query}`);
      if (status !== 200)
        throw new Error(`GET /v1/jobs answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
      jobs.push(...(body.data as any[]));
      cursor = body.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return jobs;
  }
}

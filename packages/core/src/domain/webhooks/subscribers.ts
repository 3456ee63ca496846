/** Webhook subscribers as configuration: a JSON array of `{url, secret}`. */
// A namespace import: esbuild then keeps only the parts of zod in use (a named `z` pulls all 450 KB).
import * as z from "zod";
import { ReelayError } from "../errors.ts";
import { onFirstUse } from "../on-first-use.ts";
import { secretKey } from "./sign.ts";

export interface WebhookSubscriber {
  url: string;
  secret: string;
}

/** The list's schema, built at its first use (only a configured subscriber list needs it). */
const subscribersSchema = onFirstUse(() =>
  z.array(
    z.object({
      url: z.url({ protocol: /^https?$/ }),
      secret: z.string().min(1),
    }),
  ),
);

/**
 * Validates a parsed subscriber list. `source` names where it came from (a variable or a file) in
 * error messages; a secret never appears in one.
 */
function parseSubscribers(value: unknown, source: string): WebhookSubscriber[] {
  const parsed = subscribersSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : issue.path.join(".");
    throw new ReelayError(
      "invalid_config",
      `${source} must be a JSON array of {url, secret} (http or https URLs); problem at [${where}]: ${issue?.message ?? "invalid"}.`,
      {
        path: source,
      },
    );
  }
  for (const [index, subscriber] of parsed.data.entries()) {
    secretKey(subscriber.secret, `${source}[${index}].secret`);
  }
  return parsed.data.map(({ url, secret }) => ({ url, secret }));
}

/** Parses the text of a subscriber list (the variable's value or the file's content). */
export function parseSubscribersText(text: string, source: string): WebhookSubscriber[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ReelayError("invalid_config", `${source} is not valid JSON.`, { path: source });
  }
  return parseSubscribers(value, source);
}

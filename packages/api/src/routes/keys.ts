/** API keys, managed with the admin key only: create (the key is shown once), list, revoke. */
import { Hono } from "hono";
import { ReelayError } from "@reelay/core";
import type { ApiKeyStore } from "@reelay/core/keys/store";
import { forbidden, isAdmin } from "../auth.ts";
import { jsonBodyLimit, parseJson } from "../body.ts";
import type { ApiEnv } from "../deps.ts";

const MAX_NAME = 100;

function readName(body: unknown): string {
  const name =
    body === null || typeof body !== "object" ? undefined : (body as { name?: unknown }).name;
  if (name === undefined) return "";
  if (typeof name !== "string" || name.length > MAX_NAME) {
    throw new ReelayError(
      "invalid_request",
      `name must be a string of at most ${MAX_NAME} characters.`,
      { status: 400, path: "name" },
    );
  }
  return name;
}

export function keyRoutes(keys: ApiKeyStore): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();

  routes.use("*", async (c, next) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden("Only the deployment's own API key manages keys.");
    await next();
  });

  routes.post("/", jsonBodyLimit(16 * 1024), async (c) => {
    const text = await c.req.text();
    const { record, key } = await keys.create(readName(text.trim() === "" ? {} : parseJson(text)));
    return c.json({ ...record, key }, 201);
  });

  routes.get("/", async (c) => c.json({ data: await keys.list() }));

  routes.delete("/:id", async (c) => c.json(await keys.revoke(c.req.param("id"))));

  return routes;
}

/** GET /v1/admission (admin key only): upstream slots, the limit and where it comes from, the queue. */
import { Hono } from "hono";
import type { AdmissionControl } from "@reelay/core/usecases";
import { forbidden, isAdmin } from "../../auth.ts";
import type { ApiEnv } from "../../api-deps.ts";

export function admissionRoutes(admission: AdmissionControl): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get("/", async (c) => {
    if (!isAdmin(c.get("caller")))
      throw forbidden("Only the deployment's own API key sees admission, which spans every key.");
    return c.json(await admission.snapshot());
  });
  return routes;
}

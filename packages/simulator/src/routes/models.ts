import { requestFaults, type Req, type SimContext } from "../context.ts";
import { HttpError, sendJson } from "../http-io.ts";

/** GET /v1/models?modality=video|image */
export async function listModels(ctx: SimContext, r: Req): Promise<void> {
  const modality = r.url.searchParams.get("modality");
  if (modality !== null && modality !== "video" && modality !== "image") {
    throw new HttpError(400, "invalid_modality", "Query `modality` must be video or image");
  }
  if ((await requestFaults(ctx, r, ["models"])).kind !== "none") return;
  const data = ctx.opts.models
    .filter((m) => modality === null || m.modality === modality)
    .map((m) => ({ id: m.id, object: "model", modality: m.modality }));
  sendJson(r.res, 200, { object: "list", data });
}

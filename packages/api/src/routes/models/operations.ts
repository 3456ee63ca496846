/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import { ModelListSchema } from "../../openapi/responses.ts";
import { UNAUTHORIZED } from "../../openapi/examples.ts";
import type { Operation } from "../../openapi/operation.ts";
import { upstreamOnlyItem } from "../../openapi/model-item.ts";

export const MODELS_OPERATIONS: Record<string, Operation> = {
  "GET /v1/models": {
    summary: "List models",
    description:
      "reelay's catalog (modes, resolutions, durations, ratios, audio default, allowed config keys, aliases, deprecated_at, sunset_at, successor) merged with the upstream's listing when it answers within a few seconds; otherwise the catalog alone with a warning. `aliases` maps each alias to its model.",
    tag: "models",
    auth: true,
    parameters: [
      {
        name: "modality",
        in: "query",
        required: false,
        description: "Only models of this modality.",
        schema: { type: "string", enum: ["video", "image"] },
        example: "video",
      },
    ],
    response: {
      status: 200,
      contentType: "application/json",
      schema: ModelListSchema,
      example: {
        object: "list",
        data: [
          {
            id: "gamma-3.1",
            object: "model",
            family: "gamma",
            modality: "video",
            match: "exact",
            modes: ["text", "first_frame", "first_last_frame", "reference"],
            resolutions: ["720p", "1080p", "4k"],
            durations: [4, 6, 8],
            aspect_ratios: ["16:9", "9:16"],
            audio_default: false,
            config_keys: [],
            source: "both",
            aliases: ["gamma-latest"],
            deprecated_at: null,
            sunset_at: null,
            successor: null,
          },
          upstreamOnlyItem("newmodel-1", "video"),
        ],
        aliases: { "gamma-latest": "gamma-3.1" },
        warnings: [],
      },
      description: "The models.",
    },
    errors: [
      {
        status: 400,
        codes: ["invalid_query"],
        when: "modality is not video or image (error.path = modality).",
      },
      UNAUTHORIZED,
    ],
  },
};

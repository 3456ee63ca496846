/**
 * `reelay models [--modality video|image] [--json]`: the models reelay knows (GET /v1/models), each
 * with the aliases that name it and its lifecycle: deprecated from, sunset from, and its successor.
 */
import type { ModelsView, ReelayApiClient } from "../client/api.ts";
import { table } from "../client/format.ts";
import { openSession, reportFailures } from "../client/session.ts";
import type { Io } from "../io.ts";
import { parseCommandArgs, UsageError } from "../usage.ts";

const MODALITIES = ["video", "image"] as const;
type Modality = (typeof MODALITIES)[number];

function render(list: ModelsView): string {
  const rows = [
    ["MODEL", "MODALITY", "ALIASES", "DEPRECATED", "SUNSET", "SUCCESSOR", "SOURCE"],
    ...list.data.map((model) => [
      model.match === "prefix" ? `${model.id}<version>` : model.id,
      model.modality ?? "-",
      model.aliases.length === 0 ? "-" : model.aliases.join(", "),
      model.deprecated_at ?? "-",
      model.sunset_at ?? "-",
      model.successor ?? "-",
      model.source,
    ]),
  ];
  const warnings = list.warnings.map((warning) => `warning: ${warning.message}\n`);
  return `${table(rows)}${warnings.join("")}`;
}

async function report(client: ReelayApiClient, modality: Modality | undefined, json: boolean) {
  const list = await client.models(modality);
  return json ? `${JSON.stringify(list)}\n` : render(list);
}

export async function runModels(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    options: {
      modality: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  const modality = values.modality;
  if (modality !== undefined && !(MODALITIES as readonly string[]).includes(modality))
    throw new UsageError(`--modality must be video or image, got "${modality}".`);
  return reportFailures(io, "models", values.json, async () => {
    const { client } = await openSession(io);
    io.stdout(await report(client, modality as Modality | undefined, values.json));
    return 0;
  });
}

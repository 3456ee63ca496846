/**
 * `reelay doctor` against the rehearsed stage, as an operator runs it against a deployment: the
 * real binary, a child process, with the stage's URL and key. The API function holds no upstream
 * key (only Submit, Poll and Download do), so its upstream line passes as "not checked".
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Stage } from "../stage.ts";
import { expectThat, type Scenario } from "./support.ts";

const BIN = fileURLToPath(new URL("../../packages/cli/bin/reelay.js", import.meta.url));

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

/** `reelay doctor --json` with `apiKey`; its exit code and checks. */
function doctor(stage: Stage, apiKey: string): Promise<{ code: number; checks: Check[] }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, "doctor", "--json"],
      { env: { REELAY_API_URL: stage.apiUrl, REELAY_API_KEY: apiKey }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        try {
          resolve({ code, checks: JSON.parse(stdout) as Check[] });
        } catch {
          reject(
            new Error(`reelay doctor printed no JSON (exit ${code}): ${stderr.slice(0, 500)}`),
          );
        }
      },
    );
  });
}

const show = (checks: Check[]) =>
  checks.map((c) => `${c.ok ? "ok" : "FAIL"} ${c.check}: ${c.detail}`).join("; ");

export const DOCTOR_SCENARIOS: readonly Scenario[] = [
  {
    name: "reelay doctor with the stage's key: every check passes (reachable, version, scopes, secrets, subscribers, a dry-run quote; the upstream not checked from the API function), exit 0",
    async run(stage) {
      const { code, checks } = await doctor(stage, stage.apiKey);
      expectThat(code === 0 && checks.every((c) => c.ok), `doctor: exit ${code}: ${show(checks)}`);
      const upstream = checks.find((c) => c.check === "upstream");
      expectThat(
        upstream?.detail.startsWith("not checked") === true,
        `the upstream line: ${upstream?.detail}`,
      );
    },
  },
  {
    name: "reelay doctor with a wrong key: scopes, secrets and quote fail, each with its fix, exit 1",
    async run(stage) {
      const { code, checks } = await doctor(stage, "rly_not_this_stage_key");
      const failed = checks.filter((c) => !c.ok).map((c) => c.check);
      expectThat(code === 1, `doctor: exit ${code}: ${show(checks)}`);
      expectThat(
        ["scopes", "secrets", "quote"].every((name) => failed.includes(name)),
        `failed: ${failed.join(", ")}`,
      );
      expectThat(
        checks.every((c) => c.ok || (c.fix ?? "") !== ""),
        `a failed check without a fix: ${show(checks)}`,
      );
    },
  },
];

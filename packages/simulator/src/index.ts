export { startSimulator } from "./server.ts";
export { DIALECTS, FAULT_NAMES } from "./types.ts";
export type {
  DialectName,
  FaultName,
  FaultRule,
  FaultTarget,
  ModelEntry,
  SimOutput,
  SimTask,
  SimTaskStatus,
  Simulator,
  SimulatorCounters,
  SimulatorOptions,
} from "./types.ts";
export { DEFAULT_MODELS } from "./models.ts";
export { parseDirectives, parseFaultHeader } from "./fault-parse.ts";
export { VIDEO_FIXTURE } from "./video-output.ts";

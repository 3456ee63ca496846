export { startSimulator } from "./server.ts";
export { DIALECTS } from "./types.ts";
export type {
  FaultRule,
  Simulator,
  SimulatorCounters,
  SimulatorOptions,
} from "./types.ts";
export { parseDirectives, parseFaultHeader } from "./fault-parse.ts";
export { VIDEO_FIXTURE } from "./video-output.ts";

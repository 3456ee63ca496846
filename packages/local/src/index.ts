export { startLocalStack, type LocalStack } from "./stack.ts";
export { readyBanner } from "./banner.ts";
export { consoleLogger } from "./log.ts";
export {
  parseSimAccounts,
  startSimulatedAccounts,
  type SimAccountSpec,
  type SimulatedAccount,
  type SimulatedAccounts,
} from "./sim-accounts.ts";

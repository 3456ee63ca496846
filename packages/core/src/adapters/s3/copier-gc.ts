/**
 * The garbage collector of a process whose work is streaming copies (the Download function): no
 * incremental marking, so V8 runs a mark-compact when its old generation is full, not all along,
 * and scavenges on the main thread alone.
 *
 * Measured on Node 20 (V8 11.3), a 1 GiB copy in a fresh process (`npm run bench -- --only copy`):
 * the copier's heap is small (about 10 MB, most of it the SDK's code) and little of what it
 * allocates lives, so V8 gives the old generation the least headroom it gives (its trace: "factor
 * 1.1 based on mu=0.970"), and incremental marking began again soon after each mark-compact ended
 * (V8's reasons: "allocation limit" and "task"): 20 to 100 mark-compacts per GiB, each marking the
 * whole heap on V8's helper threads, about 1 CPU-second per GiB, a third of the copier's CPU. A
 * plain fetch-to-file of the same bytes ran one. Without incremental marking the copier runs one
 * too; a full collection of a 10 MB heap pauses a few milliseconds. The copy's socket reads make a
 * scavenge every 16-32 MB; V8's helper threads sharing each cost about 0.2 CPU-s per GiB more than
 * the main thread doing it alone (6 runs of each, alternating: 2.45 against 2.24 CPU-s per GiB).
 * The Download function has 512 MB, a fraction of one vCPU, on which helper threads only contend.
 *
 * Flags set at run time, as the Lambda runtime starts node with its own heap flags and NODE_OPTIONS
 * takes only a few V8 flags (neither of these). Only the processes that run copies call it.
 */
import { setFlagsFromString } from "node:v8";

export function collectGarbageForCopies(): void {
  setFlagsFromString("--no-incremental-marking");
  setFlagsFromString("--no-parallel-scavenge");
}

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
 * The Download function has 1769 MB (for ffmpeg), one vCPU, on which helper threads only contend.
 *
 * The socket's chunks are copied into reused part buffers and die at once, but their memory is
 * outside the heap, so nothing in the heap's own sizes calls for a scavenge soon: dead chunks piled
 * up to 30 MB beside the part buffers before one came (process.memoryUsage().arrayBuffers 26-55 MB
 * at the peak), and the copier's peak RSS spread over 137-152 MB across runs of the same 1 GiB copy.
 * So a copier scavenges once a part is filled (`afterPartFilled`, about 128 times a GiB, each a
 * fraction of a millisecond: little in the young generation lives), which frees that part's chunks:
 * 125-128 MB over 5 runs, with the same CPU a GiB (1.89 CPU-s against 1.88-1.97).
 *
 * Flags set at run time, as the Lambda runtime starts node with its own heap flags and NODE_OPTIONS
 * takes only a few V8 flags (none of these). Only the processes that run copies call it; the
 * collector's `gc` is taken from a context of its own, so the process's global object gains
 * nothing.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let scavenge: (() => void) | undefined;

export function collectGarbageForCopies(): void {
  setFlagsFromString("--no-incremental-marking");
  setFlagsFromString("--no-parallel-scavenge");
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (options: { type: "minor" }) => void;
  scavenge = () => gc({ type: "minor" });
}

/** A part buffer is full: in a process that runs copies, frees the chunks copied into it. */
export function afterPartFilled(): void {
  scavenge?.();
}

/**
 * md5 of a byte range of a file, taken in a worker thread so the caller's event loop never hashes.
 * One worker, started on first use and unreferenced (it never keeps the process alive); requests
 * queue in it. The worker's code is inline, so it runs the same from source, from a bundle and
 * from the CLI's build.
 */
import { Worker } from "node:worker_threads";

const READ_CHUNK = 1024 * 1024;

const WORKER_CODE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { closeSync, openSync, readSync } = require("node:fs");
const buffer = Buffer.allocUnsafe(${READ_CHUNK});
parentPort.on("message", ({ id, path, offset, length }) => {
  try {
    const hash = createHash("md5");
    const fd = openSync(path, "r");
    try {
      for (let done = 0; done < length; ) {
        const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - done), offset + done);
        if (n === 0) throw new Error(path + " ended " + (length - done) + " bytes early");
        hash.update(buffer.subarray(0, n));
        done += n;
      }
    } finally {
      closeSync(fd);
    }
    parentPort.postMessage({ id, md5: hash.digest("hex") });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Answer {
  id: number;
  md5?: string;
  error?: string;
}

type Waiter = { resolve: (md5: string) => void; reject: (error: Error) => void };

export class Md5Worker {
  #current: { worker: Worker; waiting: Map<number, Waiter> } | undefined;
  #next = 0;

  /** Hex md5 of `length` bytes of `path` from `offset`. */
  ofRange(path: string, offset: number, length: number): Promise<string> {
    const id = this.#next++;
    const { worker, waiting } = this.#started();
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, path, offset, length });
    });
  }

  #started(): { worker: Worker; waiting: Map<number, Waiter> } {
    if (this.#current !== undefined) return this.#current;
    const worker = new Worker(WORKER_CODE, { eval: true });
    const waiting = new Map<number, Waiter>();
    worker.unref();
    worker.on("message", ({ id, md5, error }: Answer) => {
      const waiter = waiting.get(id);
      waiting.delete(id);
      if (md5 !== undefined) waiter?.resolve(md5);
      else waiter?.reject(new Error(error ?? "md5 worker gave no answer"));
    });
    // A worker that died fails what it held; the next request starts a new one.
    const fail = (error: Error) => {
      if (this.#current?.worker === worker) this.#current = undefined;
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`md5 worker exited with code ${code}`)));
    this.#current = { worker, waiting };
    return this.#current;
  }
}

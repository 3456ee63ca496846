/**
 * `npm test`: the style gate (`npm run check`) and the tests (`vitest run`, with any arguments
 * given) side by side. Most of the tests' time is spent waiting on local stacks, so the gate's
 * minute of CPU fits beside them instead of before them. Either failing fails the run; a failed
 * gate prints its output at once and stops the tests, as running it first did. A passed gate's
 * few lines are printed when it ends, so the tests' summary stays the last line.
 */
import { type ChildProcess, spawn } from "node:child_process";

const started = Date.now();

const check = spawn("npm", ["run", "--silent", "check"], { stdio: ["ignore", "pipe", "pipe"] });
const checkOutput: Buffer[] = [];
check.stdout.on("data", (chunk: Buffer) => checkOutput.push(chunk));
check.stderr.on("data", (chunk: Buffer) => checkOutput.push(chunk));

// Its own process group, so a failed gate (or a signal to this runner) stops vitest's workers and
// the stacks they started along with it.
const tests = spawn("npx", ["vitest", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
  detached: true,
});

function stop(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
    process.kill(-child.pid, signal);
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    stop(tests, signal);
    check.kill(signal);
  });

const exitOf = (child: ChildProcess) =>
  new Promise<number>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );

const checked = exitOf(check).then((code) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const output = Buffer.concat(checkOutput).toString().trim();
  const verdict = code === 0 ? "passed" : `failed (exit ${code})`;
  process.stdout.write(`\nstyle gate (npm run check) ${verdict} in ${seconds} s\n${output}\n\n`);
  if (code !== 0) stop(tests, "SIGTERM");
  return code;
});

const [checkCode, testCode] = await Promise.all([checked, exitOf(tests)]);
process.exitCode = checkCode !== 0 ? checkCode : testCode;

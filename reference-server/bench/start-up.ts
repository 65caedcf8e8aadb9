import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface StartUpBench {
  runs: number;
  /** Medians, in ms: importing the built package; the call of startReferenceServer() to its first answer; the whole process. */
  importMs: number;
  callToAnswerMs: number;
  processMs: number;
  /** Every run's call-to-answer time, lowest first. */
  callToAnswerSeen: number[];
}

const child = fileURLToPath(new URL('./start-up-child.mjs', import.meta.url));
const kit = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** One child process starting the kit; its own timings plus the process's, spawn to exit. */
async function once(): Promise<{ importMs: number; callToAnswerMs: number; processMs: number }> {
  const started = performance.now();
  const proc = spawn(process.execPath, [child, kit], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  const processMs = performance.now() - started;
  if (code !== 0) throw new Error(`the start-up run exited with ${code}: ${out}`);
  return { ...(JSON.parse(out) as { importMs: number; callToAnswerMs: number }), processMs };
}

/** `runs` starts of `startReferenceServer()` on SQLite in memory, each in a fresh process, one after another. */
export async function benchStartUp(runs: number): Promise<StartUpBench> {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once());
  const callToAnswer = results.map((r) => r.callToAnswerMs);
  return {
    runs,
    importMs: median(results.map((r) => r.importMs)),
    callToAnswerMs: median(callToAnswer),
    processMs: median(results.map((r) => r.processMs)),
    callToAnswerSeen: [...callToAnswer].sort((a, b) => a - b),
  };
}

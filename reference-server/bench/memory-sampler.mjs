import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';

// Loaded into the benchmarked server (`node --import bench/memory-sampler.mjs dist/server.js`, SVC_BENCH_MEMORY=<file>):
// every 100 ms one line `epochMs rss heapTotal heapUsed external arrayBuffers` (bytes), so the bench can say which
// part of the process's memory a flood grows (bench/load.ts reads the lines of each run's window).
const file = process.env.SVC_BENCH_MEMORY;
if (file) {
  setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(file, `${Date.now()} ${m.rss} ${m.heapTotal} ${m.heapUsed} ${m.external} ${m.arrayBuffers}\n`);
  }, 100).unref();
}

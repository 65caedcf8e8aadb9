import { get } from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

// One start of the testing kit, timed from inside (bench/start-up.ts runs it 20 times): importing the built package,
// then from the call of startReferenceServer() on SQLite in memory to its first answer. The request goes out through
// node:http, which the server has loaded anyway: fetch's own first use (loading undici) is the client's start-up,
// not the server's. Prints one JSON line.
const status = (url) =>
  new Promise((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });

const beforeImport = performance.now();
const { startReferenceServer } = await import(process.argv[2]);
const called = performance.now();
const server = await startReferenceServer();
const answer = await status(`${server.url}/healthz`);
const answered = performance.now();
if (answer !== 200) throw new Error(`/healthz answered ${answer}`);
await server.close();
console.log(JSON.stringify({ importMs: called - beforeImport, callToAnswerMs: answered - called }));

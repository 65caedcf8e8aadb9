import process from 'node:process';

// The testing kit as a customer's test suite uses it: start, answer one request, close. `node start-kit.mjs <dist
// index.js URL> [database URL]`.
const { startReferenceServer } = await import(process.argv[2]);
const server = await startReferenceServer({ databaseUrl: process.argv[3] ?? 'sqlite::memory:' });
const res = await fetch(`${server.url}/healthz`);
if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
await server.close();

import { buildApp } from './app';

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? '127.0.0.1';
const app = buildApp();
await app.listen({ port, host });
console.log(`listening on http://${host}:${port}`);

import { join } from 'node:path';

/** The environment contract of `svc-reference-server` (README "How the server starts"). */
export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Key prefix of the Redis rate-limit counters; servers sharing limits share it. */
  redisPrefix: string | undefined;
  testControl: boolean;
  rateLimits: boolean;
  publicUrl: string;
  trustProxy: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8787);
  const host = env.HOST ?? '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${join(process.cwd(), 'svc.sqlite')}`,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    testControl: env.SVC_TEST_CONTROL === '1',
    // Benchmarks only: `SVC_RATE_LIMITS=off` removes the §Limits rate limits.
    rateLimits: env.SVC_RATE_LIMITS !== 'off',
    publicUrl: env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    trustProxy: env.TRUST_PROXY === '1',
  };
}

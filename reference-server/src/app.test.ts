import { describe, expect, it } from 'vitest';
import { buildApp } from './app';

describe('app', () => {
  it('answers /healthz', async () => {
    const app = buildApp();
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp, type AppOptions } from '../src/app';
import { openStore, uniqueSchemaName, type OpenStoreOptions, type Store } from '../src/store/db';
import { createControlClient, type ControlClient } from '../src/testing/control-client';
import { assertValidResponse } from '../src/testing/validate';

export interface Harness {
  app: FastifyInstance;
  store: Store;
  /** Control API client, through `app.inject`. */
  control: ControlClient;
  /** A `fetch` through `app.inject` that validates every response against spec/openapi.yaml. */
  fetch: typeof fetch;
  /** Sends one request through `app.inject`; the response is validated against the spec before it is returned. */
  request(method: string, url: string, options?: RequestOptions): Promise<HarnessResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** JSON body (serialised) unless `raw` is given. */
  json?: unknown;
  /** Raw body text, sent with `contentType` (default text/plain). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Shorthand for `Authorization: Bearer <key>`. */
  key?: string;
  /** The client's address (`request.ip`); 127.0.0.1 when absent. */
  remoteAddress?: string;
}

export interface HarnessResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body (undefined when empty). */
  body: any;
  text: string;
}

/**
 * The shared server harness for reference-server tests: a fresh store (SQLite in memory, or a private
 * PostgreSQL schema when DATABASE_URL names PostgreSQL), test control on, and every response validated.
 */
export async function createHarness(options: Partial<AppOptions> = {}, storeOptions: OpenStoreOptions = {}): Promise<Harness> {
  const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
  const store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true, ...storeOptions });
  const app = buildApp({ store, testControl: true, ...options });
  await app.ready();

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<HarnessResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) {
      payload = opts.raw;
      headers['content-type'] ??= opts.contentType ?? 'text/plain';
    } else if (opts.json !== undefined) {
      payload = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      headers,
      ...(payload === undefined ? {} : { payload }),
      ...(opts.remoteAddress === undefined ? {} : { remoteAddress: opts.remoteAddress }),
    });
    const observed = { method, url: path, status: res.statusCode, headers: res.headers, body: res.body };
    assertValidResponse(observed);
    // A CSV export (text/csv) is read as `text`; every other answer of the server is JSON.
    const json = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, headers: res.headers, body: res.body && json ? JSON.parse(res.body) : undefined, text: res.body };
  }

  const injectFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? await req.text() : undefined;
    const u = new URL(req.url);
    const res = await app.inject({
      method: req.method as 'GET',
      url: u.pathname + u.search,
      headers: Object.fromEntries(req.headers),
      ...(body === undefined ? {} : { payload: body }),
    });
    assertValidResponse({ method: req.method, url: u.pathname, status: res.statusCode, headers: res.headers, body: res.body });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, String(v));
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.body, { status: res.statusCode, headers });
  };

  return {
    app,
    store,
    control: createControlClient('http://inject.local', injectFetch),
    fetch: injectFetch,
    request,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * The set-up most server test files share: one harness per file, reset before each test, then `prepare` (if
 * given). Tests read `t.h`.
 */
export function harnessPerFile(prepare?: (h: Harness) => Promise<void>): { h: Harness } {
  const t = {} as { h: Harness };
  beforeAll(async () => {
    t.h = await createHarness();
  });
  afterAll(() => t.h.close());
  beforeEach(async () => {
    await t.h.control.reset();
    await prepare?.(t.h);
  });
  return t;
}

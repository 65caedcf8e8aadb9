/**
 * The SDK names each attempt with its own `X-Request-ID` (the server echoes a well-formed one, spec
 * components/headers/X-Request-ID), so even a network failure or `GET /cli/status` (no id on its 200)
 * leaves an id to quote to support. `crypto.randomUUID` is global on Node ≥ 19, Bun, Deno and edge;
 * Node 18 falls back to Math.random, which only needs to be unique enough to correlate logs.
 */
export function newRequestId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `svc-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

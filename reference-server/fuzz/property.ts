import { catalogue } from '@svc/types';
import fc from 'fast-check';
import { validateResponse } from '../src/testing/validate';
import { fuzzCase, type FuzzCase } from './cases';
import { listOperations, type FuzzOperation } from './operations';
import { materialise, type FuzzRequest } from './request';
import type { FuzzTarget, Snapshot } from './target';

export const operations: FuzzOperation[] = listOperations();

/**
 * Refusals the spec documents as not side-effect free: the sale stored before `partnerId required …`
 * (spec/rules.md "Errors/Status codes") and the synthetic-chain cap, whose fixture records may already exist
 * (spec/rules.md "Rate-limit response"). Every other 4xx must leave the data exactly as it was.
 */
function mayRecordOnRefusal(op: FuzzOperation, status: number, body: string): boolean {
  if (op.template === '/api/v1/track/sale' && status === 400 && body.includes('partnerId required to create commission')) return true;
  if ((op.template === '/api/v1/cli/test-event' || op.template.startsWith('/api/tracking/run-verification')) && status === 429) {
    return body.includes('synthetic chains');
  }
  return false;
}

export class FuzzFailure extends Error {
  constructor(
    message: string,
    readonly request: FuzzRequest,
    readonly status: number,
    readonly body: string,
  ) {
    const shown = {
      ...request,
      payload:
        request.payload && request.payload.length > 500
          ? `${request.payload.slice(0, 500)}… (${request.payload.length} chars)`
          : request.payload,
    };
    super(`${message}\n  request: ${JSON.stringify(shown)}\n  answered ${status}: ${body.slice(0, 1000)}`);
    this.name = 'FuzzFailure';
  }
}

/** Sends one case and checks the three properties: no 5xx, a response the spec describes, no trace of a refusal. */
export async function checkCase(target: FuzzTarget, ops: FuzzOperation[], c: FuzzCase, before: { current: Snapshot }): Promise<string> {
  const op = ops[c.op]!;
  const request = materialise(op, c, target.fixtures);
  // Counters are reset per case so limits never mask what a route does with the input; headers are still sent.
  await target.app.svc.rateLimitStore.reset();
  const res = await target.inject(request);
  const body = res.body;
  if (res.statusCode >= 500) throw new FuzzFailure(`${op.method} ${op.template}: ${res.statusCode}`, request, res.statusCode, body);
  const result = validateResponse({ method: request.method, url: request.url, status: res.statusCode, headers: res.headers, body });
  if (!result.valid) throw new FuzzFailure(`response violates the spec: ${result.errors.join('; ')}`, request, res.statusCode, body);
  const contentType = request.headers['content-type']?.toLowerCase() ?? '';
  // Only operations with a request body read it (a GET's or a retired route's body is ignored, per the spec).
  // A media type the operation accepts must be refused for its size (413); another may be refused first for
  // its type (400 `Content-Type must be application/json`). A missing or unusable key is refused before the
  // body is read (401), whatever the body, and so is a cross-site request to a dashboard or sign-in route (403).
  const refusedBeforeBody = res.statusCode === 401 || (res.statusCode === 403 && body.includes(catalogue.crossSiteRefused.message));
  if (request.oversized && op.contentTypes.length > 0 && !refusedBeforeBody) {
    const accepted = op.contentTypes.some((type) => contentType.split(';')[0]!.trim() === type);
    const refusedForType = res.statusCode === 400 && body.includes(catalogue.unsupportedMediaType.message);
    if (accepted ? res.statusCode !== 413 : res.statusCode !== 413 && !refusedForType) {
      throw new FuzzFailure(
        `an oversized body must answer 413${accepted ? '' : ' or be refused for its type'}`,
        request,
        res.statusCode,
        body,
      );
    }
  }
  await target.refresh(op.template, res.statusCode, body);
  const after = await target.snapshot();
  if (res.statusCode >= 400 && !mayRecordOnRefusal(op, res.statusCode, body)) {
    const changed = Object.keys(after.rows).filter((t) => after.rows[t] !== before.current.rows[t]);
    if (changed.length > 0 || after.records !== before.current.records) {
      throw new FuzzFailure(
        `a refused request (${res.statusCode}) changed data: ${changed.join(', ') || 'program records'}`,
        request,
        res.statusCode,
        body,
      );
    }
  }
  before.current = after;
  return `${op.method} ${op.template} → ${res.statusCode}`;
}

export interface FuzzRunOptions {
  seed: number;
  numRuns: number;
  path?: string;
  /** Only the operations whose path matches (`FUZZ_ROUTES`); a replay must use the same filter. */
  routes?: RegExp;
}

/** Runs the property; on failure throws with the seed and path that replay it. */
export async function runFuzz(target: FuzzTarget, options: FuzzRunOptions): Promise<{ statuses: Record<string, number> }> {
  const statuses: Record<string, number> = {};
  const ops = options.routes ? operations.filter((op) => options.routes!.test(op.template)) : operations;
  if (ops.length === 0) throw new Error(`no operation matches ${String(options.routes)}`);
  const before = { current: await target.snapshot() };
  const property = fc.asyncProperty(fuzzCase(ops), async (c) => {
    try {
      const outcome = await checkCase(target, ops, c, before);
      statuses[outcome] = (statuses[outcome] ?? 0) + 1;
    } catch (error) {
      // A shrink step runs after a failing case: re-read the state so the next comparison starts clean.
      before.current = await target.snapshot();
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.numRuns,
    ...(options.path ? { path: options.path } : {}),
    endOnFailure: false,
  });
  if (details.failed) {
    throw new Error(
      `fuzz failed after ${details.numRuns} cases (seed ${details.seed}, path "${details.counterexamplePath}")\n` +
        `replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}${options.routes ? ` FUZZ_ROUTES='${options.routes.source}'` : ''} pnpm fuzz\n` +
        `${String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)}`,
    );
  }
  return { statuses };
}

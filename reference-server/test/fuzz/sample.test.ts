import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, runFuzz } from '../../fuzz/property';
import { createFuzzTarget, type FuzzTarget } from '../../fuzz/target';

// The seeded run of `pnpm fuzz` inside `pnpm test`: same generator, same properties, fixed seed. `FUZZ_RUNS` sets the
// count: 10,000 by default, `FUZZ_RUNS=500` for a quick run (`pnpm test:quick`). A failure here replays with
// `FUZZ_SEED=20240917 FUZZ_RUNS=<the same count> pnpm fuzz` (the failing case is among the first that many).
const seed = 20240917;
const numRuns = fuzzRuns(process.env.FUZZ_RUNS);
// Measured alone on the 2-core machine: 10,000 cases take about 10 s on SQLite and 75 s on PostgreSQL. The whole
// suite runs beside them in `pnpm test`, so the budget is several times that (40 ms a case, at least a minute).
const timeoutMs = Math.max(60_000, numRuns * 40);

function fuzzRuns(value: string | undefined): number {
  if (value === undefined || value === '') return 10_000;
  const runs = Number(value);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer, not ${JSON.stringify(value)}`);
  return runs;
}

describe('fuzz sample: every route, random and malformed input', () => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await createFuzzTarget();
  });
  afterAll(() => target?.close());

  it('covers every non-control operation of the spec', () => {
    const templates = new Set(operations.map((op) => op.template));
    for (const route of [
      '/api/v1/track/click',
      '/api/v1/track/lead',
      '/api/v1/track/sale',
      '/api/v1/track/refund',
      '/api/v1/cli/test-event',
    ]) {
      expect(templates).toContain(route);
    }
    expect([...templates].some((t) => t.startsWith('/_test/'))).toBe(false);
  });

  it(
    `${numRuns} seeded cases: never a 5xx, every response valid, nothing recorded on refusal`,
    async () => {
      const { statuses } = await runFuzz(target, { seed, numRuns });
      const total = Object.values(statuses).reduce((a, b) => a + b, 0);
      expect(total).toBe(numRuns);
      // The sample reaches both outcomes: accepted requests and refusals.
      expect(Object.keys(statuses).some((k) => k.endsWith('→ 200'))).toBe(true);
      expect(Object.keys(statuses).some((k) => k.endsWith('→ 413'))).toBe(true);
    },
    timeoutMs,
  );
});

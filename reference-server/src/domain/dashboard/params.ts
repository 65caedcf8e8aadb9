import { fail } from '../../errors/service-error';

const integerText = /^\d+$/;

/** A positive integer id from a path or body (`program_id must be a positive integer`). */
export function programIdFrom(value: unknown, required = true): number {
  if (value === undefined || value === null || value === '') {
    throw fail(required ? 'dashboardProgramIdRequired' : 'dashboardProgramIdInvalid');
  }
  const id = typeof value === 'string' && integerText.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw fail('dashboardProgramIdInvalid');
  return id as number;
}

/** An optional integer query parameter in [min, max]; absent → the default. */
export function integerParam(
  value: unknown,
  range: { min: number; max: number; fallback?: number },
  invalid: () => Error,
): number | undefined {
  if (value === undefined) return range.fallback;
  if (typeof value !== 'string' || !integerText.test(value)) throw invalid();
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max) throw invalid();
  return n;
}

export function booleanParam(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw fail('dashboardIncludeTestInvalid');
}

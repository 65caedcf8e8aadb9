import { fail } from '../../../errors/service-error';

/** Body readers of the control API: a wrong field answers 400 naming it, in the platform envelope. */
export type Fields = Record<string, unknown>;

export const invalid = (message: string) => fail('testControlInvalid', { message });
export const notFound = (message: string) => fail('testControlNotFound', { message });

/** The body as an object with only `allowed` members (an empty body reads as `{}`). */
export function objectBody(body: unknown, allowed: readonly string[]): Fields {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('Body must be a JSON object');
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw invalid(`Unknown field: ${unknown.join(', ')}`);
  return body as Fields;
}

export function optionalString(body: Fields, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`${name} must be a non-empty string`);
  return value;
}

export function optionalInteger(body: Fields, name: string, min = 1): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < min) throw invalid(`${name} must be an integer of at least ${min}`);
  return value as number;
}

export function requiredInteger(body: Fields, name: string): number {
  const value = optionalInteger(body, name);
  if (value === undefined) throw invalid(`${name} is required`);
  return value;
}

/** An integer id, or null when the caller asks for one explicitly; undefined when absent. */
export function nullableInteger(body: Fields, name: string): number | null | undefined {
  return body[name] === null ? null : optionalInteger(body, name);
}

/** An ISO 8601 date-time as epoch ms. */
export function optionalTime(body: Fields, name: string): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw invalid(`${name} must be an ISO 8601 date-time`);
  return ms;
}

export function pathId(raw: string): number {
  const id = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw invalid('id must be a positive integer');
  return id;
}

/** Narrow readers for the untyped JSON of a processor event (only what the service reads). */
import { asObject, type JsonObject } from '../../json/fields';

export { asObject, type JsonObject };

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A Stripe reference: an id string, or the expanded object carrying `id`. */
export function asRefId(value: unknown): string | undefined {
  return asString(value) ?? asString(asObject(value)?.id);
}

export function asNonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

import { SvcError, type Svc } from '@svc/server';
import { printable, printableDeep } from '../output/printable';

/**
 * The client with every string the server sends made printable (`output/printable.ts`): each call's answer, and
 * the message, details and hint of the errors it throws. Every command prints server text only through a client
 * made here, so none of them can forget it.
 */
export function printableClient(client: Svc): Svc {
  return wrap(client);
}

function wrap<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value === 'function') return (...args: unknown[]) => settle(value.apply(object, args));
      // The namespaces (`cli`, `partners`, `links`, …) are objects of calls.
      if (value !== null && typeof value === 'object') return wrap(value);
      return value;
    },
  });
}

function settle(result: unknown): unknown {
  if (!(result instanceof Promise)) return result;
  return result.then(printableDeep, (error: unknown) => {
    throw error instanceof SvcError ? printableError(error) : error;
  });
}

/** The error itself, its server texts cleaned in place (its class is what callers match on). */
function printableError(error: SvcError): SvcError {
  const fields = error as unknown as { message: string; details?: unknown; hint?: unknown; docsUrl?: unknown };
  fields.message = printable(fields.message);
  for (const key of ['details', 'hint', 'docsUrl'] as const) {
    if (fields[key] !== undefined) Object.defineProperty(error, key, { value: printableDeep(fields[key]), configurable: true });
  }
  return error;
}

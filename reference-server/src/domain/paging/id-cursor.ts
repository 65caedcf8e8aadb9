import type { FixedCatalogueKey } from '@svc/types';
import { fail } from '../../errors/service-error';

/**
 * The cursor of a list paged by descending id: it names the last id shown, base64url-encoded behind a letter of
 * its own per list so callers treat it as opaque (its form may change) and one list's cursor is refused by another.
 * A cursor that is not one of this list's answers `invalid`.
 */
export function idCursor(letter: string, invalid: FixedCatalogueKey) {
  const form = new RegExp(`^${letter}([1-9]\\d{0,15})$`);
  return {
    of: (id: number): string => Buffer.from(`${letter}${id}`).toString('base64url'),
    id(value: unknown): number {
      if (typeof value !== 'string' || value.length > 64) throw fail(invalid);
      const match = form.exec(Buffer.from(value, 'base64url').toString());
      const id = match ? Number(match[1]) : NaN;
      if (!Number.isSafeInteger(id)) throw fail(invalid);
      return id;
    },
  };
}

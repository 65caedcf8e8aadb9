import { describe, expect, it } from 'vitest';
import { catalogue, clientErrorCodes, saleErrorCodes, typedErrorCodes, type CatalogueEntry } from './catalogue';
import { errorHints } from './hints';

describe('errorHints', () => {
  it('has a hint for every code the service or an SDK can give, and for every details code of the catalogue', () => {
    const detailCodes = Object.values(catalogue as Record<string, Pick<CatalogueEntry, 'clientCode'>>).flatMap((e) =>
      e.clientCode ? [e.clientCode] : [],
    );
    const codes = new Set([...saleErrorCodes, ...typedErrorCodes, ...clientErrorCodes, ...detailCodes, 'ACCOUNT_BLOCKED']);
    for (const code of codes) expect(errorHints[code], code).toMatch(/\S/);
  });

  it('names only known codes', () => {
    const known: string[] = [...saleErrorCodes, ...typedErrorCodes, ...clientErrorCodes, 'ACCOUNT_BLOCKED'];
    for (const code of Object.keys(errorHints)) expect(known).toContain(code);
  });
});

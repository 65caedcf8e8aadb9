import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  catalogue,
  isFixedEntry,
  cliFailures,
  commissionTypes,
  currencies,
  customerStatuses,
  messageTemplates,
  providers,
  webhookEventTypes,
} from './index';
import { specPath } from '../scripts/generate-source';

const spec = parse(await readFile(specPath, 'utf8'));
const specText = JSON.stringify(spec);
const schemas = spec.components.schemas;

describe('error catalogue', () => {
  it.each(Object.entries(catalogue))('%s: its message is written in spec/openapi.yaml', (_key, entry) => {
    if (!isFixedEntry(entry)) return; // templated: the samples below
    expect(specText.includes(JSON.stringify(entry.message).slice(1, -1)), entry.message).toBe(true);
  });

  it('templated messages appear in the spec as examples', () => {
    const samples = [
      messageTemplates.leadStatus('lead'),
      messageTemplates.saleCurrency('GBP'),
      messageTemplates.saleProvider(providers),
      messageTemplates.initCommissionType('flat'),
      messageTemplates.testEventType('purchase'),
      messageTemplates.originNotAllowed('https://evil.example'),
      ...Object.keys(cliFailures).map((k) =>
        messageTemplates.cliFailure(k as keyof typeof cliFailures, '0b6f1c1e-2a7e-4c43-9d0a-0f4d2a9a8d11'),
      ),
    ];
    for (const message of samples) expect(specText.includes(message), message).toBe(true);
  });

  it('runtime enumerations equal the spec enums', () => {
    expect([...currencies]).toEqual(schemas.Currency.enum);
    expect([...providers]).toEqual(schemas.Provider.enum);
    expect([...commissionTypes]).toEqual(schemas.CommissionType.enum);
    expect([...customerStatuses]).toEqual(schemas.CustomerStatus.enum);
    expect([...webhookEventTypes]).toEqual(schemas.WebhookEventType.enum);
  });
});

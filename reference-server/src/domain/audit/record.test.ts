import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { actionLabels } from '../../dashboard/audit-labels';
import { auditActions } from './record';

describe('auditActions', () => {
  it("is the spec's AuditAction enum, in order, and the dashboard names each", async () => {
    const spec = parse(await readFile(new URL('../../../../spec/openapi.yaml', import.meta.url), 'utf8'));
    expect([...auditActions]).toEqual(spec.components.schemas.AuditAction.enum);
    expect(Object.keys(actionLabels).sort()).toEqual([...auditActions].sort());
  });
});

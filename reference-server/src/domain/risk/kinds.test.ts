import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { riskKindLabels } from '../../dashboard/risk-labels';
import { holdsCommission, kindsOf, riskKinds } from './kinds';

describe('riskKinds', () => {
  it("is the spec's RiskKind enum, in order, and the dashboard names each", async () => {
    const spec = parse(await readFile(new URL('../../../../spec/openapi.yaml', import.meta.url), 'utf8'));
    expect([...riskKinds]).toEqual(spec.components.schemas.RiskKind.enum);
    expect(Object.keys(riskKindLabels).sort()).toEqual([...riskKinds].sort());
  });

  it('reads a stored list, and holds only on a kind the program holds on', () => {
    expect(kindsOf(null)).toEqual([]);
    expect(kindsOf('shared_identity,nonsense,self_referral')).toEqual(['self_referral', 'shared_identity']);
    const program = { risk_hold_kinds: 'self_referral,shared_identity' };
    expect(holdsCommission(program, 'disposable_email', null)).toBe(false);
    expect(holdsCommission(program, 'disposable_email', 'shared_identity')).toBe(true);
    expect(holdsCommission({ risk_hold_kinds: '' }, 'self_referral', 'shared_identity')).toBe(false);
  });
});

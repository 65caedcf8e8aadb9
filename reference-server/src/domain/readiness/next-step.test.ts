import { describe, expect, it } from 'vitest';
import { nextStep } from './next-step';

const base = { keyMarked: false, activeLinks: 1, click: true, lead: true, sale: true };

describe('nextStep', () => {
  it('follows the funnel', () => {
    expect(nextStep({ ...base, keyMarked: true })?.code).toBe('rotate_key');
    expect(nextStep({ ...base, activeLinks: 0 })?.code).toBe('create_link');
    expect(nextStep({ ...base, click: false })?.code).toBe('install_tracker');
    expect(nextStep({ ...base, lead: false })?.code).toBe('track_lead');
    expect(nextStep({ ...base, sale: false })?.code).toBe('track_sale');
    expect(nextStep(base)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { eventLine } from './test-event';

describe('eventLine', () => {
  it('names the ids of a step that went through', () => {
    expect(eventLine({ event_type: 'click', ok: true, click_id: 'clk_1' })).toBe('✔ test click (click_id clk_1)');
  });

  it('says why a step was refused, with the service’s message', () => {
    expect(eventLine({ event_type: 'click', ok: false, error: 'This referral link has been turned off.' })).toBe(
      '✖ test click: This referral link has been turned off.',
    );
    expect(eventLine({ event_type: 'lead', ok: false })).toBe('✖ test lead');
  });
});

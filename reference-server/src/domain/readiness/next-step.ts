import type { Readiness } from '@svc/types';

export interface ReadinessState {
  keyMarked: boolean;
  activeLinks: number;
  click: boolean;
  lead: boolean;
  sale: boolean;
}

/** The single most useful thing to do next, in funnel order; null when nothing is missing. */
export function nextStep(state: ReadinessState): Readiness['next_step'] {
  if (state.keyMarked) {
    return {
      code: 'rotate_key',
      message: 'This API key is marked for rotation: regenerate it in the dashboard program settings and update SVC_API_KEY.',
    };
  }
  if (state.activeLinks === 0) {
    return {
      code: 'create_link',
      message:
        "Create a referral link for a partner: in the dashboard's Partners section, with svc partners add and svc links create, or POST /api/v1/links. Clicks are recorded for enabled links with a partner.",
    };
  }
  if (!state.click) {
    return {
      code: 'install_tracker',
      message: 'Add the svc-tracker.js script tag to your site and open it through a referral link (?aff=…).',
    };
  }
  if (!state.lead) {
    return {
      code: 'track_lead',
      message: 'Send a lead from your backend (POST /api/v1/track/lead with the Bearer key) when a customer signs up.',
    };
  }
  if (!state.sale) {
    return { code: 'track_sale', message: 'Send a sale from your backend (POST /api/v1/track/sale) or connect your payment processor.' };
  }
  return null;
}

/**
 * Optional features. The tracker's build replaces this module to leave them out of the lean script
 * (`svc-tracker.js`, size budget 2,048 B) and keep them in `svc-tracker.full.js`; bundlers keep both.
 */
export const withConsent: boolean = true;
export const withHandoff: boolean = true;

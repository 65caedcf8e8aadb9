// The public API of @svc/browser (README, "Exports"); the tracker builds from these same names.
export { createSvc, getClickId, clickIdCookie, clickExpiresCookie, type Svc, type SignupDetails } from './svc';
export type { SvcOptions } from './options';
export type { ClickResult, SignupResult, Skipped, Failed } from './api/results';
export { readCookie, writeCookie, detectRootDomain } from './cookie/cookie';
export { withConsent, withHandoff } from './features';

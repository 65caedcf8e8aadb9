export { createSvc, getClickId, clickIdCookie, clickExpiresCookie, type Svc, type SignupDetails } from './svc';
export type { SvcOptions } from './options';
export { leadStatusPrefix, type ClickResult, type SignupResult, type Skipped, type Failed } from './api/results';
export { domainCandidates } from './cookie/domains';
export { cookieString, parseCookie, detectRootDomain } from './cookie/cookie';
export { parseLanding, pickLandingUrl, handoffIdParam, handoffExpiresParam, type Landing, type Handoff } from './landing/landing';
export { decorateLink, decorateSearch, matchesDomain, type LinkParts } from './handoff/decorate';
export { createConsent, heldUrlKey, type ConsentState, type HoldStorage } from './consent/consent';

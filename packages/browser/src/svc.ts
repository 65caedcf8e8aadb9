import type { ClickRequest, ClickResponse, LeadRequest } from '@svc/types';
import { postPlain } from './api/post';
import { toResult, toSignupResult, type ClickResult, type SignupResult, type Skipped } from './api/results';
import { createConsent } from './consent/consent';
import { detectRootDomain, readCookie, writeCookie } from './cookie/cookie';
import { withConsent, withHandoff } from './features';
import { watchLinks } from './handoff/watch';
import { handoffExpiresParam, handoffIdParam, parseLanding, pickLandingUrl } from './landing/landing';
import type { SvcOptions } from './options';

/** spec/rules.md "What the service does", item 8: the first-party cookie holding the click id. */
export const clickIdCookie = handoffIdParam;
/**
 * When `svc_click_id` expires, in Unix seconds (a cookie's expiry cannot be read back), for the hand-off and for
 * @svc/server/cookies, which reads the same unit when it re-issues the cookie (spec/rules.md "What the service does", item 8).
 */
export const clickExpiresCookie = handoffExpiresParam;

export interface SignupDetails {
  email?: string | undefined;
}

export interface Svc {
  /** Records the click of the landing URL's `?aff=` and keeps the click id in the cookie (first click wins). */
  trackClick(): Promise<ClickResult>;
  getClickId(): string | undefined;
  /** Records a browser-mode lead (the spec's signup helper, `customerKey` first). Settles, never rejects. */
  signup(customerKey: string, details?: SignupDetails): Promise<SignupResult>;
  /** Answers a pending consent: `true` sends the held click, `false` forgets it. */
  consent(granted: boolean): Promise<ClickResult | undefined>;
}

/** The click id in the `svc_click_id` cookie, if any. */
export const getClickId = (): string | undefined => readCookie(clickIdCookie);

const skipped = (reason: Skipped['skipped']): Skipped => ({ ok: false, skipped: reason });
/** An unexpected exception becomes a failed result: the SDK never throws into the page. */
const failed = (error: unknown) => ({ ok: false, status: 0, error: { message: String(error) } }) as const;

/**
 * The browser side of svc. Captures the landing URL at once, so a router rewriting the URL later loses nothing.
 * Call it in the browser (it reads `location`).
 */
export function createSvc(options: SvcOptions): Svc {
  const base = options.baseUrl || '';
  const log = (...args: unknown[]) => options.debug && console.log('[svc]', ...args);
  const navigation = window.performance && performance.getEntriesByType('navigation')[0];
  const landingUrl = pickLandingUrl(location.href, navigation && navigation.name);
  const consent = withConsent ? createConsent(() => sessionStorage, options.consent === 'pending') : undefined;
  const granted = () => !consent || consent.granted();
  const secure = location.protocol === 'https:';
  let warned = false;

  const store = (clickId: string, expires: number) => {
    const domain = options.cookieDomain || detectRootDomain(location.hostname, secure);
    writeCookie(clickIdCookie, clickId, domain, expires, secure);
    // In every build, the lean one too: without it @svc/server/cookies cannot re-issue the cookie (spec/rules.md "Limits", Safari).
    writeCookie(clickExpiresCookie, '' + expires, domain, expires, secure);
    log('cookie', clickId, domain);
  };

  const trackClick = async (url: string): Promise<ClickResult> => {
    const landing = parseLanding(url);
    if (!landing) return skipped('no_aff');
    if (!granted()) {
      consent!.hold(url);
      return skipped('consent_pending');
    }
    const existing = getClickId();
    const handoff = landing.handoff;
    // Hand-off from another of the site's domains: adopted only when this domain has no click yet (first click wins).
    if (withHandoff && handoff && !existing && handoff.expires * 1000 > Date.now()) store(handoff.clickId, handoff.expires);
    if (!landing.aff) return skipped('no_aff');
    const request: ClickRequest = { affiliate_url: url, click_id: existing };
    const result = toResult<ClickResponse>(await postPlain(base + '/api/v1/track/click', request));
    log('click', result);
    // spec/rules.md "Attribution rules", "First click wins": the service answers the first click id; the cookie stays as it is.
    if (result.ok && result.response.click_id !== existing) {
      store(result.response.click_id, Math.floor((Date.now() + result.response.cookie_window_days * 864e5) / 1000));
    }
    return result;
  };

  const signup = async (customerKey: string, details: SignupDetails = {}): Promise<SignupResult> => {
    if (!granted()) return skipped('consent_pending');
    // spec/rules.md "Attribution rules", "Cleared cookie": without a click id the customer key and the program still record the lead.
    const request: LeadRequest = {
      click_id: getClickId(),
      customer_key: customerKey,
      email: details.email,
      additional_data: options.programId > 0 ? { program_id: options.programId } : undefined,
    };
    const result = toSignupResult(await postPlain(base + '/api/v1/track/lead', request));
    log('signup', result);
    // Once per page: a lead without a partner is otherwise silent until its first sale (spec `LeadResponse`).
    if (result.ok && result.response.attributed === false && !warned) {
      warned = true;
      console.warn('[svc] signup has no partner: no svc_click_id cookie');
    }
    return result;
  };

  if (withHandoff && options.domains && options.domains.length) watchLinks(options.domains, granted);

  return {
    trackClick: () => trackClick(landingUrl).catch(failed),
    getClickId,
    signup: (customerKey, details) => signup(customerKey, details).catch(failed),
    consent: async (granted) => {
      const held = consent && consent.answer(granted);
      return held ? trackClick(held).catch(failed) : undefined;
    },
  };
}

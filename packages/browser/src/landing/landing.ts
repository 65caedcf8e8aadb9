import { withHandoff } from '../features';

/**
 * Query parameters of the cross-domain hand-off (spec/rules.md "What the service does", item 8; a decision of svc): the click id
 * and its expiry in Unix seconds, named like the cookies that hold them.
 */
export const handoffIdParam = 'svc_click_id';
export const handoffExpiresParam = 'svc_click_exp';

export interface Handoff {
  clickId: string;
  /** When the click cookie expires on the sending domain, in Unix seconds (the unit of the `svc_click_exp` cookie). */
  expires: number;
}

export interface Landing {
  /** Whether the URL carries a non-empty `aff` (the referral link's `short_link`, spec/rules.md "Resources/Referral link"). */
  aff: boolean;
  handoff: Handoff | undefined;
}

/** What a landing URL asks for: a click to record (`aff`), a click id to adopt (hand-off), or neither. */
export function parseLanding(url: string): Landing | undefined {
  try {
    const params = new URL(url).searchParams;
    const clickId = withHandoff && params.get(handoffIdParam);
    const expires = +params.get(handoffExpiresParam)!;
    const landing = { aff: !!params.get('aff'), handoff: clickId && expires > 0 ? { clickId, expires } : undefined };
    return landing.aff || landing.handoff ? landing : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The URL the visitor landed on. The navigation entry keeps the URL the document was loaded from, so a
 * single-page-app router or an auth redirect that rewrote `location` before this script ran loses nothing.
 */
export const pickLandingUrl = (current: string, navigationUrl: string | undefined): string =>
  parseLanding(current) || !navigationUrl ? current : navigationUrl;

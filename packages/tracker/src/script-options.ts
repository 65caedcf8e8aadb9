import { withConsent, withHandoff, type SvcOptions } from '@svc/browser';

/** The `data-svc-*` attributes of the script tag, as `HTMLElement.dataset` names them. */
export interface ScriptData {
  svcProgramId?: string | undefined;
  svcCookieDomain?: string | undefined;
  svcDebug?: string | undefined;
  svcConsent?: string | undefined;
  svcDomains?: string | undefined;
}

/**
 * The tracker's options from its own tag: `data-svc-program-id`, `data-svc-cookie-domain`, `data-svc-debug`,
 * `data-svc-consent="pending"`, `data-svc-domains="a.example,b.example"`. The API base is the script's origin.
 */
export const scriptOptions = (data: ScriptData, src: string): SvcOptions => ({
  programId: +data.svcProgramId!,
  baseUrl: new URL(src).origin,
  cookieDomain: data.svcCookieDomain,
  debug: data.svcDebug != null,
  consent: withConsent ? (data.svcConsent as SvcOptions['consent']) : undefined,
  domains: (withHandoff && (data.svcDomains || '').toLowerCase().match(/[^\s,]+/g)) || undefined,
});

import type { components } from '@svc/types';
import type { Partner, ReferralLink } from '../../store/schema';
import { ownTerms } from './terms';

export type PartnerWire = components['schemas']['Partner'];
export type LinkWire = components['schemas']['ReferralLink'];

export function partnerView(partner: Partner): PartnerWire {
  return {
    id: partner.id,
    name: partner.name,
    email: partner.email,
    status: partner.status,
    // No email: nobody to invite.
    invitation: partner.email === null ? null : partner.invitation,
    // The partner's own terms; null: the program's (the summaries show the terms in force).
    commission_type: ownTerms(partner)?.commission_type ?? null,
    commission_rate: ownTerms(partner)?.commission_rate ?? null,
    created_at: new Date(partner.created_at).toISOString(),
  };
}

/**
 * The address a partner shares: the program's site with `?aff=<short_link>`, which svc-tracker.js reads. A domain
 * saved without a scheme (`acme.com`, as `svc init` takes it) is served over https. A path (the demo's `/store`,
 * written only by its seed) is a site this server serves: it is resolved against the server's address at read time,
 * so no port is ever stored (a demo started on another port hands out no dead links later).
 */
export function shareableUrl(domain: string, short: string, publicUrl = ''): string {
  const site = domain.startsWith('/') ? publicUrl.replace(/\/+$/, '') + domain : domain;
  const base = /^https?:\/\//i.test(site) ? site.replace(/\/+$/, '') : `https://${site.replace(/\/+$/, '')}`;
  return `${base}/?aff=${short}`;
}

export function linkView(link: ReferralLink, domain: string, publicUrl?: string): LinkWire {
  return {
    id: link.id,
    partner_id: link.partner_id as number,
    short_link: link.short_link,
    url: shareableUrl(domain, link.short_link, publicUrl),
    enabled: link.enabled === 1,
    disabled_by: link.disabled_by,
    created_at: new Date(link.created_at).toISOString(),
  };
}

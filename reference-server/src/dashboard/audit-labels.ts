import type { components } from '@svc/types';

/** How the dashboard names each audit action (the filter's options and each entry's heading; client/audit.ts too). */
export const actionLabels: Record<components['schemas']['AuditAction'], string> = {
  'commission.approved': 'Commission approved',
  'commission.declined': 'Commission declined',
  'commission.released': 'Held commissions released',
  'partner.created': 'Partner added',
  'partner.updated': 'Partner changed',
  'partner.invitation_answered': 'Invitation accepted or declined',
  'link.created': 'Link created',
  'link.updated': 'Link turned on or off',
  'program.updated': 'Settings changed',
  'program.key_regenerated': 'API key regenerated',
  'processor.connected': 'Stripe account connected',
  'processor.disconnected': 'Stripe account disconnected',
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint paused or resumed',
  'webhook_endpoint.deleted': 'Webhook endpoint removed',
  'payout.created': 'Payout recorded',
  'partner.terms_changed': 'Partner terms changed',
  'adjustment.created': 'Adjustment recorded',
  'team.invited': 'Team member invited',
  'team.invitation_cancelled': 'Team invitation withdrawn',
  'team.joined': 'Team member joined',
  'team.role_changed': 'Team role changed',
  'team.removed': 'Team member removed',
  'partner.banned': 'Partner banned',
};

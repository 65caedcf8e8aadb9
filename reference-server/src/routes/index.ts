import type { FastifyInstance } from 'fastify';
import { cliRoutes } from './cli';
import { authRoutes } from './auth';
import { cliAuthRoutes } from './cli-auth';
import { commissionRoutes } from './commissions';
import { riskRoutes } from './risk';
import { dashboardRoutes } from './dashboard';
import { dashboardApiRoutes } from './dashboard-api';
import { dashboardPageRoutes } from './dashboard-page';
import { dashboardPagesRoutes } from './dashboard-pages';
import { dashboardPartnerRoutes } from './dashboard-partners';
import { dashboardWebhookRoutes } from './dashboard-webhooks';
import { dashboardAuditRoutes } from './dashboard-audit';
import { dashboardTeamRoutes } from './dashboard-team';
import { docsSiteRoutes } from './docs-site';
import { healthRoutes } from './health';
import { partnerApiRoutes } from './partners-api';
import { partnerViewRoutes } from './partner-view';
import { processorConnectRoutes } from './processor-connect';
import { readinessRoutes } from './readiness';
import { readyRoutes } from './ready';
import { testControlRoutes } from './test-control';
import { trackerScriptRoutes } from './tracker-script';
import { trackingRoutes } from './tracking';
import { webhookRoutes } from './webhooks';

/** Every route module of the server; each is a Fastify plugin in its own file or folder. */
export function registerRoutes(app: FastifyInstance, options: { testControl: boolean }): void {
  app.register(healthRoutes);
  app.register(readyRoutes);
  app.register(trackingRoutes);
  app.register(readinessRoutes);
  app.register(trackerScriptRoutes);
  app.register(cliAuthRoutes);
  app.register(authRoutes);
  app.register(cliRoutes);
  app.register(dashboardRoutes);
  app.register(dashboardApiRoutes);
  app.register(dashboardPartnerRoutes);
  app.register(commissionRoutes);
  app.register(riskRoutes);
  app.register(dashboardWebhookRoutes);
  app.register(dashboardAuditRoutes);
  app.register(dashboardTeamRoutes);
  app.register(partnerViewRoutes);
  app.register(partnerApiRoutes);
  app.register(dashboardPageRoutes);
  app.register(dashboardPagesRoutes);
  app.register(docsSiteRoutes);
  app.register(webhookRoutes);
  app.register(processorConnectRoutes);
  // spec/rules.md "Test-control API": mounted only on request, never in production by default.
  if (options.testControl) app.register(testControlRoutes);
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountView } from '../dashboard/account-layout';
import { newProgramPage, partnerViewPage, welcomePage } from '../dashboard/home-pages';
import { notFoundPage } from '../dashboard/not-found-page';
import { programPage, type ProgramPagePath, programPages } from '../dashboard/program-pages';
import { signedOutPage, signInFailedPage } from '../dashboard/sign-in-page';
import { listAccountPrograms } from '../domain/cli/programs';
import { requireMembership } from '../domain/dashboard/access';
import { requireDashboardAccount } from '../domain/login/dashboard-session';
import { utcDay } from '../domain/metrics/record';
import { partnerViewOf } from '../domain/partner-view/partner-view';
import { partnerOf } from '../domain/partners/partners';
import { handledEventTypes } from '../domain/processor/event';
import { mayCreateWorkspace } from '../domain/programs/creators';
import { listWebhookEndpointSummaries } from '../domain/webhooks/endpoints';
import { ServiceError } from '../errors/service-error';
import { sendPage } from '../http/page';
import { pageSecurity } from '../http/security-headers';
import { cookieHeader, readCookie, readSessionToken } from '../http/session-cookie';
import type { Account } from '../store/schema';
import { domainContext } from './domain-context';

/** The program the account opened last (`/dashboard` opens it again); only a hint, checked like any address. */
const lastProgramCookie = 'svc_last_program';
const integerText = /^[1-9]\d{0,15}$/;
const idOf = (text: string | undefined) => (text !== undefined && integerText.test(text) ? Number(text) : undefined);
const notFound = (reply: FastifyReply, message: string) => sendPage(reply, 404, notFoundPage(message));

type Query = Record<string, unknown>;
const queryText = (q: Query, name: string) => (typeof q[name] === 'string' ? q[name] : undefined);

/**
 * The dashboard's pages: `/dashboard` (opens the program used last), New program, the partner view, and every page of
 * a program (dashboard/program-pages.ts). Each address loads directly: signed out, the sign-in page; an address
 * naming nothing this account may see, a 404 page.
 */
export async function dashboardPagesRoutes(app: FastifyInstance): Promise<void> {
  const deps = () => domainContext(app);

  /** Runs `render` for the signed-in account; otherwise answers the sign-in (or refusal) page. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, render: (account: Account, view: AccountView) => Promise<unknown>) {
    let account: Account;
    try {
      account = await requireDashboardAccount(
        { store: app.svc.store, clock: app.svc.clock },
        readSessionToken(request, app.svc.sessionCookie),
      );
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      if (error.status === 403)
        return sendPage(reply, 200, signInFailedPage(error.message, 'Contact support if you think this is a mistake.'));
      return sendPage(reply, 200, signedOutPage());
    }
    const [programs, canCreatePrograms] = await Promise.all([
      listAccountPrograms(deps(), account.id),
      mayCreateWorkspace(app.svc.store.db, app.svc.workspaceCreators, account),
    ]);
    return render(account, { email: account.email, programs, canCreatePrograms });
  }

  app.get('/dashboard', pageSecurity, (request, reply) =>
    signedIn(request, reply, async (_account, view) => {
      const last = idOf(readCookie(request.headers.cookie, lastProgramCookie));
      const open = view.programs.find((p) => p.id === last) ?? view.programs[0];
      if (open) return reply.redirect(`/dashboard/programs/${open.id}`, 302);
      return sendPage(reply, 200, welcomePage(view));
    }),
  );

  app.get('/dashboard/new', pageSecurity, (request, reply) =>
    signedIn(request, reply, async (_account, view) => sendPage(reply, 200, newProgramPage(view))),
  );

  app.get('/dashboard/partner', pageSecurity, (request, reply) =>
    signedIn(request, reply, async (_account, view) => sendPage(reply, 200, partnerViewPage(view))),
  );

  app.get<{ Params: { programId: string } }>('/dashboard/partner/:programId', pageSecurity, (request, reply) =>
    signedIn(request, reply, async (account, view) => {
      const id = idOf(request.params.programId);
      const entry = id && (await partnerViewOf(deps(), account)).partners.find((p) => p.program.id === id);
      if (!entry) return notFound(reply, 'You are not a partner of this program.');
      return sendPage(reply, 200, partnerViewPage(view, entry.program));
    }),
  );

  /** A program's page: the account must be an active member; the page's own id (partner, endpoint) the program's. */
  async function programRoute(
    request: FastifyRequest<{ Params: { programId: string; partnerId?: string; endpointId?: string }; Querystring: Query }>,
    reply: FastifyReply,
    path: ProgramPagePath,
  ) {
    return signedIn(request, reply, async (account, view) => {
      const id = idOf(request.params.programId);
      const member = id === undefined ? undefined : await requireMembership(deps(), account, id).catch(notMember);
      if (!member) return notFound(reply, 'No program of yours has this address.');
      const { program, role } = member;
      const ids: { partnerId?: number; endpointId?: number } = {};
      if (path === '/partners/{partnerId}') {
        const partnerId = idOf(request.params.partnerId);
        const partner = partnerId === undefined ? undefined : await partnerOf(deps(), program, partnerId).catch(missing);
        if (!partner) return notFound(reply, 'This program has no such partner.');
        ids.partnerId = partner.id;
      }
      if (path === '/webhooks/{endpointId}') {
        const endpointId = idOf(request.params.endpointId);
        const endpoints = await listWebhookEndpointSummaries(deps(), program);
        if (!endpoints.some((e) => e.id === endpointId)) return notFound(reply, 'This program has no such webhook endpoint.');
        ids.endpointId = endpointId;
      }
      reply.header(
        'Set-Cookie',
        cookieHeader(lastProgramCookie, String(program.id), {
          secure: app.svc.sessionCookie.secure,
          maxAgeSeconds: 365 * 86_400,
          path: '/dashboard',
        }),
      );
      const q = request.query;
      return sendPage(
        reply,
        200,
        programPage(path, {
          account: view,
          program: { id: program.id, name: program.name, domain: program.domain, role },
          publicUrl: app.svc.publicUrl,
          settings: {
            processorWebhook: {
              url: `${app.svc.publicUrl}/api/v1/webhooks/processor`,
              eventTypes: handledEventTypes,
              secretConfigured: app.svc.processorWebhookSecrets.length > 0,
            },
            stripeConnect: app.svc.stripeConnect !== undefined,
          },
          range: { days: queryText(q, 'days'), from: queryText(q, 'from'), to: queryText(q, 'to') },
          today: utcDay(app.svc.clock.now()),
          ...ids,
        }),
      );
    });
  }

  for (const path of Object.keys(programPages) as ProgramPagePath[]) {
    const route = `/dashboard/programs/:programId${path.replace('{partnerId}', ':partnerId').replace('{endpointId}', ':endpointId')}`;
    app.get<{ Params: { programId: string; partnerId?: string; endpointId?: string }; Querystring: Query }>(
      route,
      pageSecurity,
      (request, reply) => programRoute(request, reply, path),
    );
  }
}

/** A refusal that means "not yours" (no such program, or another's): undefined, so the page answers 404. */
function notMember(error: unknown): undefined {
  if (error instanceof ServiceError && error.status === 403) return undefined;
  throw error;
}
function missing(error: unknown): undefined {
  if (error instanceof ServiceError && error.status === 404) return undefined;
  throw error;
}

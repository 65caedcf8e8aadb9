import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { builtDashboardAssets } from '../dashboard/built-assets';
import { faviconSvg } from '../dashboard/favicon';
import { fail } from '../errors/service-error';

/** `?v=<the asset's version>` (the URL the pages use): the content behind it never changes. */
const immutable = 'public, max-age=31536000, immutable';
/** Any other URL of an asset: revalidated by ETag on every use. */
const revalidate = 'no-cache';

/** The dashboard's built assets (its pages: dashboard-pages.ts) and the favicon every page links. */
export async function dashboardPageRoutes(app: FastifyInstance): Promise<void> {
  app.get('/favicon.svg', (_request, reply) =>
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(faviconSvg),
  );
  // Browsers ask for /favicon.ico on their own (a page they did not get from here, a JSON answer): the same icon.
  app.get('/favicon.ico', (_request, reply) => reply.redirect('/favicon.svg', 301));

  // The built scripts and stylesheet (src/dashboard/built-assets.ts) and nothing else: any other name is a 404.
  // @fastify/static sends them (ETag, Last-Modified, 304 on a match, the content type); the route picks the file.
  const assets = builtDashboardAssets();
  await app.register(fastifyStatic, { root: assets.dir, serve: false, index: false, cacheControl: false });
  app.get<{ Params: { file: string }; Querystring: { v?: unknown } }>('/dashboard/assets/:file', async (request, reply) => {
    const { file } = request.params;
    const version = assets.versions.get(file);
    if (version === undefined) throw fail('routeNotFound');
    reply.header('Cache-Control', request.query.v === version ? immutable : revalidate);
    return reply.sendFile(file);
  });
}

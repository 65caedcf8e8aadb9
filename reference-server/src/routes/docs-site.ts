import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../dashboard/built-assets';

/** Where `pnpm docs:build` writes the site in a clone of the repository (VitePress's output of docs/). */
export const builtDocsDir = (): string => join(packageRoot(), '..', 'docs', '.vitepress', 'dist');

/**
 * The docs site at `/docs/`, so every `docs_url` (`${PUBLIC_URL}/docs/errors/<code>`) opens for whoever reached this
 * server. With `SVC_DOCS_URL` the site lives elsewhere and `/docs/*` redirects there, so the SDK's and the CLI's
 * links, built from the server's address, still arrive. A site that is not built answers 404, said once in the log.
 */
export async function docsSiteRoutes(app: FastifyInstance): Promise<void> {
  const { url, dir } = app.svc.docs;
  if (dir === undefined) {
    app.get('/docs', (_request, reply) => reply.redirect(`${url}/`, 302));
    app.get<{ Params: { '*': string } }>('/docs/*', (request, reply) => reply.redirect(`${url}/${request.params['*']}`, 302));
    return;
  }
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.info(`The docs site is not built (pnpm docs:build writes ${dir}): /docs/ answers 404`);
    return;
  }
  const contentSecurityPolicy = docsContentSecurityPolicy(dir);
  // The site's pages link to its home as /docs/ (VitePress's base).
  app.get('/docs', (_request, reply) => reply.redirect('/docs/', 301));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/docs/',
    decorateReply: false,
    // The site's links have no `.html` (VitePress `cleanUrls`): /docs/errors/timeout is errors/timeout.html.
    extensions: ['html'],
    setHeaders: (reply) => {
      reply.header('content-security-policy', contentSecurityPolicy);
    },
  });
}

/**
 * The pages' Content-Security-Policy, as strict as the dashboard's but for what the built site needs: its two inline
 * theme scripts (the same on every page) allowed by their hashes, and inline `style` attributes (VitePress renders
 * them; no script runs from a style).
 */
export function docsContentSecurityPolicy(dir: string): string {
  const inline = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.html')) continue;
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      inline.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
    }
  }
  return [
    "default-src 'self'",
    `script-src 'self' ${[...inline].join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join(';');
}

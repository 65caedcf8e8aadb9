import { clickCookieHeaders, type PersistOptions } from './click-cookie';

/**
 * Re-issues the visitor's `svc_click_id` as a server-set cookie on a standard `Response` (Workers, Deno,
 * Bun, Next.js route handlers, Hono...). Returns the response to send: the same one, or a copy when its
 * headers are immutable (a `fetch` response).
 */
export function persistClickId(request: Request, response: Response, options?: PersistOptions): Response {
  const url = new URL(request.url);
  const forwarded = request.headers.get('x-forwarded-proto');
  const cookies = clickCookieHeaders(
    {
      cookie: request.headers.get('cookie'),
      hostname: url.hostname,
      secure: (forwarded ?? url.protocol).replace(/:$/, '') === 'https',
    },
    options,
  );
  if (!cookies.length) return response;
  let target = response;
  try {
    for (const cookie of cookies) target.headers.append('set-cookie', cookie);
  } catch {
    target = new Response(response.body, response);
    for (const cookie of cookies) target.headers.append('set-cookie', cookie);
  }
  return target;
}

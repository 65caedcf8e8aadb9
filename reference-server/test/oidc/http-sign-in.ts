import { contractFetch } from '../../src/testing/fetch';

/** The cookies a browser would keep, per origin (name and value; a cookie set empty or expired is dropped). */
class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  keep(url: string, response: Response): void {
    const cookies = this.of(url);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (value === '' || expired) cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  header(url: string): string {
    return [...this.of(url)].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(url: string, name: string): string | undefined {
    return this.of(url).get(name);
  }

  private of(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    let cookies = this.byOrigin.get(origin);
    if (!cookies) this.byOrigin.set(origin, (cookies = new Map()));
    return cookies;
  }
}

const unescape = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** The page's form: where it posts and its hidden fields (the issuer's login and consent pages have one each). */
function formOf(html: string, pageUrl: string): { action: string; fields: URLSearchParams; asksLogin: boolean } {
  const action = /<form[^>]*\saction="([^"]*)"/i.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form on ${pageUrl}: ${html.slice(0, 500)}`);
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
    fields.set(unescape(name!), unescape(value!));
  }
  return { action: new URL(unescape(action), pageUrl).href, fields, asksLogin: /<input[^>]*name="login"/i.test(html) };
}

/**
 * Signs in to the reference server over plain HTTP, as a browser would: `GET /auth/sign-in`, every redirect
 * followed by hand with the cookies of each side, the issuer's login form (its `login` is the account in
 * `startIssuer`'s users, any password) and its consent form, then the server's `/auth/callback`. Answers the
 * dashboard session cookie (`name=value`). Every answer of the reference server is checked against the spec.
 */
export async function signInOverHttp(serverUrl: string, login: string): Promise<string> {
  const jar = new CookieJar();
  let url = `${serverUrl}/auth/sign-in`;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const ours = url.startsWith(serverUrl);
    const headers: Record<string, string> = { cookie: jar.header(url) };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await (ours ? contractFetch : fetch)(url, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(form ? { body: form.toString() } : {}),
    });
    jar.keep(url, response);
    form = undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url).href;
      const session = jar.get(serverUrl, 'svc_session');
      if (ours && next === `${serverUrl}/dashboard` && session) return `svc_session=${session}`;
      url = next;
      continue;
    }
    const html = await response.text();
    if (ours || response.status !== 200) throw new Error(`sign-in stopped at ${url} (${response.status}): ${html.slice(0, 500)}`);
    const page = formOf(html, url);
    form = page.fields;
    if (page.asksLogin) {
      form.set('login', login);
      form.set('password', 'any password');
    }
    url = page.action;
  }
  throw new Error('sign-in did not finish within 20 steps');
}

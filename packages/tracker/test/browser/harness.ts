import { chromium, type BrowserContext, type Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import type { ReferenceServer, startReferenceServer as StartReferenceServer } from '@svc/reference-server';
import { apiHost, startEdge, type Edge } from './edge';

// The built reference server, by URL on purpose: @svc/reference-server depends on @svc/tracker (it serves the
// script), so a devDependency back would make a cycle in the workspace graph; `pnpm build` builds it after us. Its
// types come from its source (tsconfig.base.json's paths), so the type-check needs no build.
const builtServer = new URL('../../../../reference-server/dist/index.js', import.meta.url).href;
const { startReferenceServer } = (await import(builtServer)) as { startReferenceServer: typeof StartReferenceServer };

/**
 * The browser engine: Chromium (playwright-core), or Firefox ESR (puppeteer-core over WebDriver BiDi) in the
 * `tracker:firefox` project, which sets SVC_BROWSER (vitest.firefox.config.ts).
 */
export type Engine = 'chromium' | 'firefox';
const engineOfRun: Engine = process.env.SVC_BROWSER === 'firefox' ? 'firefox' : 'chromium';

/** A cookie as both engines report it. */
export interface Cookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Unix seconds; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  /** `Default`: set without the attribute (Firefox over BiDi says so; Chromium says `None` or `Lax`). */
  sameSite: 'Strict' | 'Lax' | 'None' | 'Default';
}

/** The few operations the engine-neutral tests (cookie, attribution) use; Playwright's own objects have them. */
export interface VisitContext {
  cookies(): Promise<Cookie[]>;
  clearCookies(): Promise<void>;
  close(): Promise<void>;
}
export interface VisitPage {
  goto(url: string): Promise<unknown>;
  url(): string;
  waitForFunction(fn: () => unknown): Promise<{ jsonValue(): Promise<unknown> }>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  waitForTimeout(ms: number): Promise<void>;
}

export interface Visit<C extends VisitContext = VisitContext, P extends VisitPage = VisitPage> {
  context: C;
  page: P;
  /** Uncaught page errors and console messages: the tracker must cause neither. */
  errors: string[];
  console: string[];
}
/** A Chromium visit: all of Playwright (clock, clicks, waitForURL), for the Chromium-only tests. */
export type ChromiumVisit = Visit<BrowserContext, Page>;
type VisitOf<E extends Engine> = [E] extends ['chromium'] ? ChromiumVisit : Visit;

export interface World<E extends Engine = Engine> {
  engine: E;
  server: ReferenceServer;
  edge: Edge;
  /** A fresh browser context (cookies of its own) with one page. */
  newVisit(): Promise<VisitOf<E>>;
  close(): Promise<void>;
}

interface Launched<V> {
  newVisit(): Promise<V>;
  close(): Promise<void>;
}

/** Debian's Chromium resolving every host to 127.0.0.1, driven by playwright-core. */
async function launchChromium(): Promise<Launched<ChromiumVisit>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--ignore-certificate-errors',
      '--host-resolver-rules=MAP * 127.0.0.1',
    ],
  });
  return {
    async newVisit() {
      const context = await browser.newContext();
      const page = await context.newPage();
      const visit: ChromiumVisit = { context, page, errors: [], console: [] };
      page.on('pageerror', (error) => visit.errors.push(String(error)));
      page.on('console', (message) => visit.console.push(message.text()));
      return visit;
    },
    close: () => browser.close(),
  };
}

/**
 * Debian's Firefox ESR driven by puppeteer-core over WebDriver BiDi. `network.dns.forceResolve` resolves every
 * host to 127.0.0.1 (Chromium's `MAP *`), `acceptInsecureCerts` takes the edge's self-signed certificate, and
 * HTTPS-First is off so that `http://` storefronts stay HTTP (the Secure attribute depends on it).
 */
async function launchFirefox(): Promise<Launched<Visit>> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: true,
    acceptInsecureCerts: true,
    extraPrefsFirefox: { 'network.dns.forceResolve': '127.0.0.1', 'dom.security.https_first': false },
  });
  return {
    async newVisit() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const cookies = async (): Promise<Cookie[]> =>
        (await context.cookies()).map(({ name, value, domain, path, expires, httpOnly, secure, sameSite }) => ({
          name,
          value,
          domain,
          path,
          expires,
          httpOnly: httpOnly ?? false,
          secure,
          sameSite: sameSite ?? 'Default',
        }));
      const visit: Visit = {
        context: {
          cookies,
          clearCookies: async () => context.deleteCookie(...(await context.cookies())),
          close: () => context.close(),
        },
        page: {
          goto: (url) => page.goto(url),
          url: () => page.url(),
          waitForFunction: (fn) => page.waitForFunction(fn),
          evaluate: (fn: (arg: unknown) => unknown, arg?: unknown) => page.evaluate(fn, arg),
          waitForTimeout: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        },
        errors: [],
        console: [],
      };
      page.on('pageerror', (error) => visit.errors.push(String(error)));
      page.on('console', (message) => visit.console.push(message.text()));
      return visit;
    },
    close: () => browser.close(),
  };
}

/**
 * The real reference server, the edge in front of it, and a browser resolving every host to 127.0.0.1: the run's
 * engine (SVC_BROWSER), or the one named, for tests that use more of Playwright than the engine-neutral Visit.
 */
export async function startWorld(engine: 'chromium'): Promise<World<'chromium'>>;
export async function startWorld(engine?: Engine): Promise<World>;
export async function startWorld(engine: Engine = engineOfRun): Promise<World> {
  const server = await startReferenceServer({ testControl: true });
  const edge = await startEdge(server.url);
  const browser: Launched<Visit> = engine === 'firefox' ? await launchFirefox() : await launchChromium();
  return {
    engine,
    server,
    edge,
    newVisit: () => browser.newVisit(),
    async close() {
      await browser.close();
      await edge.close();
      await server.close();
    },
  };
}

export interface Program {
  id: number;
  windowDays: number;
  partners: { id: number; link: string }[];
}

/** A program (browser-mode leads allowed) with one referral link per partner. */
export async function createProgram(world: World, options: { windowDays?: number; partners?: number } = {}): Promise<Program> {
  const windowDays = options.windowDays ?? 30;
  const program = await world.server.control.createProgram({ attribution_window_days: windowDays, lead_auth: 'browser_allowed' });
  const partners = [];
  for (let i = 0; i < (options.partners ?? 1); i++) {
    const partner = await world.server.control.createPartner({ program_id: program.id });
    const link = await world.server.control.createLink({ program_id: program.id, partner_id: partner.id });
    partners.push({ id: partner.id, link: link.short_link });
  }
  return { id: program.id, windowDays, partners };
}

export interface TagOptions {
  programId: number;
  scheme?: 'http' | 'https';
  /** `full` loads svc-tracker.full.js (consent and hand-off). */
  build?: 'lean' | 'full';
  attributes?: Record<string, string>;
  /** How the page loads it: `async` (the pasted snippet), `defer`, a plain classic tag, or `type="module"`. */
  loading?: Loading;
}

export type Loading = 'async' | 'defer' | 'classic' | 'module';
const loadingAttribute: Record<Loading, string> = { async: ' async', defer: ' defer', classic: '', module: ' type="module"' };

/** The script URL on the API host, over the page's scheme. */
export function scriptUrl(world: World, scheme: 'http' | 'https' = 'http', build: 'lean' | 'full' = 'lean'): string {
  const port = scheme === 'https' ? world.edge.httpsPort : world.edge.httpPort;
  return `${scheme}://${apiHost}:${port}/js/${build === 'full' ? 'svc-tracker.full.js' : 'svc-tracker.js'}`;
}

/** The tag a storefront pastes (spec/rules.md "What the service does", item 8). */
export function scriptTag(world: World, options: TagOptions): string {
  const attributes = Object.entries({ 'data-svc-program-id': String(options.programId), ...options.attributes })
    .map(([name, value]) => ` ${name}="${value}"`)
    .join('');
  const loading = loadingAttribute[options.loading ?? 'async'];
  return `<script${loading} src="${scriptUrl(world, options.scheme, options.build)}"${attributes}></script>`;
}

export const html = (...body: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>shop</title></head><body>${body.join('\n')}</body></html>`;

/** The storefront URL of a host on the edge. */
export function storeUrl(world: World, host: string, path: string, scheme: 'http' | 'https' = 'http'): string {
  return `${scheme}://${host}:${scheme === 'https' ? world.edge.httpsPort : world.edge.httpPort}${path}`;
}

export function newVisit<E extends Engine>(world: World<E>): Promise<VisitOf<E>> {
  return world.newVisit();
}

/** Opens a page and waits until the tracker has started (the `svc` global is the loaded one). */
export async function open(visit: Visit, url: string): Promise<void> {
  await visit.page.goto(url);
  await visit.page.waitForFunction(() => (window as unknown as { svc?: { loaded?: boolean } }).svc?.loaded === true);
}

/** Waits until the service has answered `count` POSTs to a path (seen at the edge), then a moment for the page to act. */
export async function waitForPosts(world: World, path: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (world.edge.seen.filter((r) => r.method === 'POST' && r.path === path).length < count) {
    if (Date.now() > deadline) throw new Error(`no ${count} POST ${path} within 10 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function clickCookie(visit: Visit) {
  return (await visit.context.cookies()).find((cookie) => cookie.name === 'svc_click_id');
}

/** Waits for the click cookie to appear. */
export async function waitForClickCookie(visit: Visit) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const cookie = await clickCookie(visit);
    if (cookie) return cookie;
    if (Date.now() > deadline) throw new Error('svc_click_id never appeared');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `svc(command, ...args)` in the page, settled through the callback argument. */
export function callSvc<T>(visit: Visit, command: string, ...args: unknown[]): Promise<T> {
  return visit.page.evaluate(
    ([command, args]) =>
      new Promise<T>((resolve) => (window as unknown as { svc: (...a: unknown[]) => void }).svc(command, ...args, resolve)),
    [command, args] as const,
  );
}

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const publicDir = new URL('../public/', import.meta.url);
const html = await readFile(new URL('index.html', publicDir), 'utf8');
const script = await readFile(new URL('store.js', publicDir), 'utf8');

/** The queue stub exactly as `@svc/tracker`'s README gives it. */
const queueStub = '<script>window.svc=window.svc||function(){(svc.q=svc.q||[]).push(arguments)}</script>';

describe('storefront page', () => {
  it('has the queue stub before the tracker tag, which loads /js/svc-tracker.js with a program id', () => {
    const stubAt = html.indexOf(queueStub);
    const tag = /<script src="([^"]+)" data-svc-program-id="(\d+)" async><\/script>/.exec(html);
    expect(stubAt).toBeGreaterThan(-1);
    expect(tag?.[1]).toBe('/js/svc-tracker.js');
    expect(Number(tag?.[2])).toBeGreaterThan(0);
    expect(stubAt).toBeLessThan(tag!.index);
  });

  it('records the signup with the browser helper and the customer key the backend answered', () => {
    expect(script).toContain("svc('signup', user.customer_key, { email: email }");
    expect(script).toContain("post('api/signup'");
  });

  it('never reports a sale from the browser: it asks its own backend (spec/rules.md "What the service does", item 9)', () => {
    expect(script).toContain("post('api/checkout'");
    for (const text of [html, script]) {
      expect(text).not.toMatch(/track\/sale|Authorization|Bearer/);
    }
  });

  it('references only files that exist, with relative paths the demo serves under /demo/store/', async () => {
    const local = [...html.matchAll(/(?:src|href)="([^"/:]+)"/g)].map((m) => m[1]!);
    expect(local.sort()).toEqual(['store.css', 'store.js']);
    for (const file of local) await expect(readFile(new URL(file, publicDir))).resolves.toBeInstanceOf(Buffer);
  });
});

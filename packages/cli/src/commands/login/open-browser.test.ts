import { describe, expect, it } from 'vitest';
import { browserCommand, openBrowser, refusalToOpen } from './open-browser';

const url = 'http://127.0.0.1:8787/auth/sign-in?state=a&b=c';

describe('browserCommand', () => {
  it('uses open on macOS, the URL handler on Windows and xdg-open in a graphical Linux session', () => {
    expect(browserCommand('darwin', {}, url)).toEqual({ command: 'open', args: [url] });
    expect(browserCommand('win32', {}, url)).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
    expect(browserCommand('linux', { DISPLAY: ':0' }, url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand('linux', { WAYLAND_DISPLAY: 'wayland-0' }, url)?.command).toBe('xdg-open');
  });

  it('has no browser without a graphical session (SSH, containers)', async () => {
    expect(browserCommand('linux', {}, url)).toBeUndefined();
    await expect(openBrowser(url, {}, 'linux')).resolves.toBe(false);
  });

  it('reports false when the opener is not installed', async () => {
    await expect(openBrowser(url, { DISPLAY: ':0', PATH: '/nonexistent' }, 'linux')).resolves.toBe(false);
  });
});

describe('refusalToOpen', () => {
  const base = 'http://127.0.0.1:8787';

  it('allows an http(s) URL on the base URL origin', () => {
    expect(refusalToOpen(url, base)).toBeUndefined();
    expect(refusalToOpen('https://svc.example/auth/sign-in?state=a', 'https://svc.example/')).toBeUndefined();
  });

  it.each([
    ['file:///etc/passwd', 'it is not an http(s) URL'],
    ['javascript:alert(1)', 'it is not an http(s) URL'],
    ['ms-settings:', 'it is not an http(s) URL'],
    ['https://evil.example/auth/sign-in', 'it is not on http://127.0.0.1:8787'],
    ['http://127.0.0.1:9999/auth/sign-in', 'it is not on http://127.0.0.1:8787'],
    ['not a url', 'it is not a valid URL'],
  ])('refuses %s', (candidate, reason) => {
    expect(refusalToOpen(candidate, base)).toBe(reason);
  });
});

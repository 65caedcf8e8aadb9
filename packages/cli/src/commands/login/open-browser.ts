import { spawn } from 'node:child_process';

/**
 * Why the server's sign-in URL is not opened, or `undefined` when it may be: only an http(s) URL on the origin of
 * the base URL the user chose, so a hostile server cannot make the browser (or the platform's opener) load a local
 * file, another scheme's handler or another site.
 */
export function refusalToOpen(url: string, baseUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'it is not an http(s) URL';
  if (parsed.origin !== new URL(baseUrl).origin) return `it is not on ${new URL(baseUrl).origin}`;
  return undefined;
}

/** The platform's "open this URL" command, or `undefined` where no browser can be opened. */
export function browserCommand(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  url: string,
): { command: string; args: string[] } | undefined {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // Not `cmd /c start`: cmd would read `&` in the query string as a command separator.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  // Elsewhere a browser needs a graphical session: over SSH or in a container there is none.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/** Opens the URL in the user's browser; resolves false when that is impossible (so the caller prints it). */
export function openBrowser(url: string, env: Record<string, string | undefined>, platform = process.platform): Promise<boolean> {
  const launcher = browserCommand(platform, env, url);
  if (!launcher) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(launcher.command, launcher.args, { stdio: 'ignore', detached: true, env });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

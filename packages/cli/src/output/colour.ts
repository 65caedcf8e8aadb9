/** The few styles the CLI uses; each is the identity when colour is off. */
export interface Colours {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

interface Stream {
  isTTY?: boolean;
}

/**
 * Colour only on a terminal, and never when `NO_COLOR` is set to a non-empty value (no-color.org) or the
 * terminal is `dumb`: piped output and CI logs stay plain text.
 */
export function colourEnabled(stream: Stream, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

const style =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export function colours(enabled: boolean): Colours {
  return {
    bold: style(enabled, 1, 22),
    dim: style(enabled, 2, 22),
    red: style(enabled, 31, 39),
    green: style(enabled, 32, 39),
    yellow: style(enabled, 33, 39),
    cyan: style(enabled, 36, 39),
  };
}

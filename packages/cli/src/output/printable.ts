// Control characters are the point of these patterns.
/* eslint-disable no-control-regex */

/**
 * Escape sequences: CSI (`ESC [` or C1 `\u009b`, parameters, final byte), OSC/DCS/SOS/PM/APC strings (ESC or C1
 * introduced, up to BEL or a string terminator), and two-byte escapes.
 */
const escapeSequences =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?/g;
/** C0 controls except tab and newline, DEL, and C1 controls. */
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A server's text made safe to print on a terminal: its escape sequences and control characters removed, so a
 * hostile or broken server cannot move the cursor, retitle the window, rewrite earlier lines or hide text.
 * Tabs and newlines stay.
 */
export function printable(text: string): string {
  return text.replace(escapeSequences, '').replace(controls, '');
}

/** Every string inside a JSON value (a response's data, an error's details) made printable. */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableDeep) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, printableDeep(item)])) as T;
  }
  return value;
}

import { describe, expect, it } from 'vitest';
import { printable, printableDeep } from './printable';

describe('printable', () => {
  it.each([
    ['a CSI colour and cursor move', 'Acme\u001b[31m red\u001b[2J\u001b[1;1H', 'Acme red'],
    ['an OSC window title ended by BEL', '\u001b]0;pwned\u0007name', 'name'],
    ['an OSC 8 hyperlink ended by ESC \\', '\u001b]8;;file:///etc/passwd\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['C0 controls (bell, backspace, carriage return)', 'a\u0007b\u0008c\rd', 'abcd'],
    ['DEL and C1 controls', 'a\u007fb\u0085c', 'abc'],
    ['C1 CSI and OSC sequences', 'a\u009b2Jb\u009d0;title\u009cc', 'abc'],
    ['a two-byte escape', 'a\u001bcb', 'ab'],
    ['a trailing lone ESC', 'ab\u001b', 'ab'],
  ])('removes %s', (_case, input, expected) => {
    expect(printable(input)).toBe(expected);
  });

  it('keeps tabs, newlines and non-ASCII text', () => {
    expect(printable('Café\tnaïve\n日本 ✔')).toBe('Café\tnaïve\n日本 ✔');
  });

  it('cleans every string of a JSON value, keeping numbers, booleans and null', () => {
    expect(printableDeep({ a: ['x\u001b[1my'], b: { c: 'z\u0007', n: 1, t: true, u: null } })).toEqual({
      a: ['xy'],
      b: { c: 'z', n: 1, t: true, u: null },
    });
  });
});

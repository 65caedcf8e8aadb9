import { describe, expect, it } from 'vitest';
import { colourEnabled, colours } from './colour';

describe('colour rules', () => {
  it('colours a terminal only', () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
  });

  it('respects NO_COLOR when it is set to a non-empty value, and TERM=dumb', () => {
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('emits ANSI sequences only when enabled', () => {
    expect(colours(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(colours(false).red('x')).toBe('x');
    expect(colours(false).bold('x')).toBe('x');
  });
});

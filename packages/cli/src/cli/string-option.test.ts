import { describe, expect, it } from 'vitest';
import { stringOption } from './string-option';

describe('stringOption', () => {
  it('returns strings as parsed', () => {
    expect(stringOption('Acme', ['--name', 'Acme'], '--name')).toBe('Acme');
    expect(stringOption(undefined, [], '--name')).toBeUndefined();
  });

  it('reads numeric-looking values back exactly as typed', () => {
    expect(stringOption(7, ['--name', '007'], '--name')).toBe('007');
    expect(stringOption(16, ['--name=0x10'], '--name')).toBe('0x10');
    expect(stringOption(20, ['--commission-rate', '20'], '--commission-rate')).toBe('20');
  });

  it('takes the last of a repeated flag', () => {
    expect(stringOption(['a', 'b'], ['--name', 'a', '--name', 'b'], '--name')).toBe('b');
  });
});

import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv';

describe('csv', () => {
  it('quotes commas, quotes and line breaks, leaves the rest', () => {
    expect(csvField('Jane, Ltd')).toBe('"Jane, Ltd"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('plain')).toBe('plain');
    expect(csvField(-120)).toBe('-120');
    expect(csvField(null)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvLine(['+1', 2])).toBe("'+1,2\r\n");
  });
});

import { describe, expect, it } from 'vitest';
import { tableLines } from './table';

const plain = { dim: (text: string) => `[${text}]` } as unknown as Parameters<typeof tableLines>[2];

describe('tableLines', () => {
  it('pads each column to its widest cell and trims the line end', () => {
    expect(
      tableLines(
        ['ID', 'NAME'],
        [
          ['1', 'Acme shop'],
          ['22', 'B'],
        ],
        plain,
      ),
    ).toEqual(['[ID  NAME]', '1   Acme shop', '22  B']);
  });
});

import { describe, expect, it } from 'vitest';
import { count } from './plural';

describe('count', () => {
  it('is singular for one and plural otherwise', () => {
    expect([0, 1, 2].map((n) => count(n, 'sale'))).toEqual(['0 sales', '1 sale', '2 sales']);
  });
});

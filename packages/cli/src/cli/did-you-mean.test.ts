import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from './did-you-mean';

const commands = ['login', 'init', 'programs', 'status', 'test', 'partners', 'links'];

describe('didYouMean', () => {
  it.each([
    ['stauts', 'status'],
    ['statsu', 'status'],
    ['progams', 'programs'],
    ['partner', 'partners'],
    ['link', 'links'],
    ['Login', 'login'],
    ['tset', 'test'],
  ])('suggests %s → %s', (typed, meant) => {
    expect(didYouMean(typed, commands)).toBe(` Did you mean "${meant}"?`);
  });

  it('suggests nothing for an exact match, or for a word too far from every candidate', () => {
    expect(didYouMean('status', commands)).toBe('');
    expect(didYouMean('frobnicate', commands)).toBe('');
    expect(didYouMean('deploy', commands)).toBe('');
    expect(didYouMean('x', commands)).toBe('');
  });

  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('clik', 'click')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

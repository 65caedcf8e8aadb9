import { baseVitest } from '../../vitest.shared.ts';

// The engine-neutral browser tests again, in Firefox ESR over WebDriver BiDi (test/browser/harness.ts reads
// SVC_BROWSER). Spread, not mergeConfig: that would add these files to the shared include list, not replace it.
const config: typeof baseVitest = {
  test: {
    ...baseVitest.test,
    name: 'tracker:firefox',
    include: ['test/browser/cookie.test.ts', 'test/browser/attribution.test.ts'],
    env: { SVC_BROWSER: 'firefox' },
  },
};

export default config;

/** The part of `sessionStorage` the consent state needs. */
export type HoldStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const heldUrlKey = 'svc_held_url';

export interface ConsentState {
  granted(): boolean;
  /** Keeps the landing URL (with its `aff`) until consent is given; nothing is stored in a cookie or sent. */
  hold(url: string): void;
  /** Records the answer; on `true` hands back the held landing URL, once. Either way the held URL is forgotten. */
  answer(granted: boolean): string | undefined;
}

/**
 * Consent gate (`data-svc-consent="pending"`). The held URL lives in sessionStorage, so it survives the page
 * changes between landing and the consent banner's answer; when storage is unavailable (privacy modes) it is
 * held in memory for this page.
 */
export function createConsent(storage: () => HoldStorage, pending: boolean): ConsentState {
  let granted = !pending;
  let memory: string | undefined;
  const use = <T>(task: (s: HoldStorage) => T): T | undefined => {
    try {
      return task(storage());
    } catch {
      return undefined;
    }
  };
  return {
    granted: () => granted,
    hold(url) {
      memory = url;
      use((s) => s.setItem(heldUrlKey, url));
    },
    answer(answer) {
      granted = answer;
      const held = granted ? use((s) => s.getItem(heldUrlKey)) || memory : undefined;
      memory = undefined;
      use((s) => s.removeItem(heldUrlKey));
      return held;
    },
  };
}

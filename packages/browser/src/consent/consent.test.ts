import { describe, expect, it } from 'vitest';
import { createConsent, heldUrlKey, type HoldStorage } from './consent';

/** sessionStorage's contract over a Map (the real one is exercised in Chromium by the tracker's tests). */
function mapStorage(): HoldStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const url = 'https://shop.example.test/?aff=summer-sale';

describe('createConsent', () => {
  it('is granted at once when not pending, holding nothing', () => {
    const storage = mapStorage();
    const consent = createConsent(() => storage, false);
    expect(consent.granted()).toBe(true);
    expect(consent.answer(true)).toBeUndefined();
  });

  it('holds the landing URL in storage until consent, then hands it back once', () => {
    const storage = mapStorage();
    const consent = createConsent(() => storage, true);
    expect(consent.granted()).toBe(false);
    consent.hold(url);
    expect(storage.map.get(heldUrlKey)).toBe(url);
    expect(consent.answer(true)).toBe(url);
    expect(consent.granted()).toBe(true);
    expect(storage.map.size).toBe(0);
    expect(consent.answer(true)).toBeUndefined();
  });

  it('finds a URL held on an earlier page of the session', () => {
    const storage = mapStorage();
    createConsent(() => storage, true).hold(url);
    expect(createConsent(() => storage, true).answer(true)).toBe(url);
  });

  it('forgets the held URL on refusal and stays refused', () => {
    const storage = mapStorage();
    const consent = createConsent(() => storage, true);
    consent.hold(url);
    expect(consent.answer(false)).toBeUndefined();
    expect(consent.granted()).toBe(false);
    expect(storage.map.size).toBe(0);
  });

  it('holds in memory when storage throws (privacy modes)', () => {
    const consent = createConsent(() => {
      throw new DOMException('denied', 'SecurityError');
    }, true);
    consent.hold(url);
    expect(consent.answer(true)).toBe(url);
  });
});

import { describe, expect, it } from 'vitest';
import { emailDomain, emailKey, isDisposableDomain, isSharedMailDomain } from './email';

describe('emailKey', () => {
  it('ignores case and a +tag everywhere, and dots only where the provider ignores them', () => {
    expect(emailKey('J.ane.Doe+shop@GoogleMail.com')).toBe('janedoe@gmail.com');
    expect(emailKey('jane.doe@gmail.com')).toBe(emailKey('JANEDOE@gmail.com'));
    expect(emailKey('jane.doe+x@bob-bikes.com')).toBe('jane.doe@bob-bikes.com');
    expect(emailKey('jane.doe@bob-bikes.com')).not.toBe(emailKey('janedoe@bob-bikes.com'));
    expect(emailKey('not-an-email')).toBeUndefined();
    expect(emailKey('+tag@gmail.com')).toBeUndefined();
    expect(emailDomain('a@Corp.Example')).toBe('corp.example');
  });

  it('knows throwaway domains (and those under them) and webmail from the packaged lists', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('eu.mailinator.com')).toBe(true);
    expect(isDisposableDomain('bob-bikes.com')).toBe(false);
    expect(isSharedMailDomain('gmail.com')).toBe(true);
    expect(isSharedMailDomain('outlook.com')).toBe(true);
    expect(isSharedMailDomain('bob-bikes.com')).toBe(false);
    expect(isSharedMailDomain('example.com')).toBe(true);
    expect(isSharedMailDomain('shop.example')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { emailDomain, emailKey, isDisposableDomain, isSharedMailDomain } from './email';

describe('emailKey', () => {
  it('ignores case and a +tag everywhere, and dots only where the provider ignores them', () => {
    expect(emailKey('J.ane.Doe+shop@GoogleMail.com')).toBe('janedoe@gmail.com');
    expect(emailKey('jane.doe@gmail.com')).toBe(emailKey('JANEDOE@gmail.com'));
    expect(emailKey('jane.doe+x@corp.example')).toBe('jane.doe@corp.example');
    expect(emailKey('jane.doe@corp.example')).not.toBe(emailKey('janedoe@corp.example'));
    expect(emailKey('not-an-email')).toBeUndefined();
    expect(emailKey('+tag@gmail.com')).toBeUndefined();
    expect(emailDomain('a@Corp.Example')).toBe('corp.example');
  });

  it('knows throwaway domains (and those under them) and webmail from the packaged lists', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('eu.mailinator.com')).toBe(true);
    expect(isDisposableDomain('corp.example')).toBe(false);
    expect(isSharedMailDomain('gmail.com')).toBe(true);
    expect(isSharedMailDomain('outlook.com')).toBe(true);
    expect(isSharedMailDomain('corp.example')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultBaseUrl, resolveBaseUrl } from './base-url';
import { UsageError } from './failures';

describe('resolveBaseUrl', () => {
  it('takes --base-url, then SVC_BASE_URL, then the reference server default', () => {
    expect(resolveBaseUrl('https://svc.example.com/', { SVC_BASE_URL: 'http://env.test' })).toBe('https://svc.example.com');
    expect(resolveBaseUrl(undefined, { SVC_BASE_URL: 'http://env.test//' })).toBe('http://env.test');
    expect(resolveBaseUrl(undefined, {})).toBe(defaultBaseUrl);
  });

  it('rejects what is not an http(s) URL as bad usage', () => {
    expect(() => resolveBaseUrl('localhost:8787', {})).toThrow(UsageError);
    expect(() => resolveBaseUrl('ftp://x.test', {})).toThrow(/absolute http\(s\) URL/);
  });
});

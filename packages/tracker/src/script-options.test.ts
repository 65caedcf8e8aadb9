import { describe, expect, it } from 'vitest';
import { scriptOptions } from './script-options';

const src = 'https://svc.example.com/js/svc-tracker.js?v=1';

describe('scriptOptions', () => {
  it('reads the program id and takes the API base from the script origin', () => {
    expect(scriptOptions({ svcProgramId: '42' }, src)).toEqual({
      programId: 42,
      baseUrl: 'https://svc.example.com',
      cookieDomain: undefined,
      debug: false,
      consent: undefined,
      domains: undefined,
    });
  });

  it('reads the cookie domain, debug flag, pending consent and hand-off domains', () => {
    expect(
      scriptOptions(
        {
          svcProgramId: '7',
          svcCookieDomain: 'example.test',
          svcDebug: '',
          svcConsent: 'pending',
          svcDomains: ' App.Example.com, checkout.example.net ,',
        },
        src,
      ),
    ).toMatchObject({
      cookieDomain: 'example.test',
      debug: true,
      consent: 'pending',
      domains: ['app.example.com', 'checkout.example.net'],
    });
  });

  it('leaves the program id unusable (NaN) when the attribute is missing, so no program_id is sent', () => {
    expect(scriptOptions({}, src).programId).toBeNaN();
  });
});

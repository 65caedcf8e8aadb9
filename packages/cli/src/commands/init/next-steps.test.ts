import { describe, expect, it } from 'vitest';
import { scriptTag, serverSnippet } from './next-steps';

describe('svc init next steps', () => {
  it('prints the tracker script tag of §What the service does, 8', () => {
    expect(scriptTag('https://svc.example.com', 42)).toBe(
      '<script src="https://svc.example.com/js/svc-tracker.js" data-svc-program-id="42" async></script>',
    );
  });

  it('shows the server SDK reporting leads and sales', () => {
    const snippet = serverSnippet('http://127.0.0.1:8787');
    expect(snippet).toContain("import { Svc } from '@svc/server';");
    expect(snippet).toContain('svc.track.lead(');
    expect(snippet).toContain('svc.track.sale(');
    expect(snippet).toContain('SVC_BASE_URL=http://127.0.0.1:8787');
  });
});

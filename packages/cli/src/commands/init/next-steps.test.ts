import { describe, expect, it } from 'vitest';
import { serverSnippet } from './next-steps';

describe('svc init next steps', () => {
  it('shows the server SDK reporting leads and sales', () => {
    const snippet = serverSnippet('http://127.0.0.1:8787');
    expect(snippet).toContain("import { Svc } from '@svc/server';");
    expect(snippet).toContain('svc.track.lead(');
    expect(snippet).toContain('svc.track.sale(');
    expect(snippet).toContain('SVC_BASE_URL=http://127.0.0.1:8787');
  });
});

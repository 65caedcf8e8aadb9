import { describe, expect, it } from 'vitest';
import { parseWorkspaceCreators } from './creators';

describe('SVC_WORKSPACE_CREATORS', () => {
  it('reads emails and @domains (lower-cased, blanks skipped), * as anyone, and unset or blank as the first account', () => {
    expect(parseWorkspaceCreators(' Boss@Shop.example , @Team.example,, ')).toEqual({
      emails: ['boss@shop.example'],
      domains: ['@team.example'],
    });
    expect(parseWorkspaceCreators('*')).toBe('anyone');
    expect(parseWorkspaceCreators(undefined)).toBeUndefined();
    expect(parseWorkspaceCreators(' , ')).toBeUndefined();
  });

  it('stops the start on an entry that is neither an email nor an @domain', () => {
    expect(() => parseWorkspaceCreators('boss@shop.example,team.example')).toThrow(
      'SVC_WORKSPACE_CREATORS holds emails and @domain entries, or *; got team.example',
    );
  });
});

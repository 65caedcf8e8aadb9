import { describe, expect, it } from 'vitest';
import { drainQueue } from './queue';

/** What the documented stub records: `arguments` objects. */
function stubQueue(...calls: unknown[][]): IArguments[] {
  const queue: IArguments[] = [];
  const stub = function (..._args: unknown[]) {
    // eslint-disable-next-line prefer-rest-params
    queue.push(arguments);
  };
  for (const call of calls) stub(...call);
  return queue;
}

describe('drainQueue', () => {
  it('replays every queued call in order with its arguments', () => {
    const seen: unknown[][] = [];
    drainQueue(stubQueue(['consent', true], ['signup', 'user_42', { email: 'a@example.test' }]), (...args) => seen.push(args));
    expect(seen).toEqual([
      ['consent', true],
      ['signup', 'user_42', { email: 'a@example.test' }],
    ]);
  });

  it('goes on after a call that throws', () => {
    const seen: unknown[] = [];
    drainQueue(stubQueue(['bad'], ['good']), (command) => {
      if (command === 'bad') throw new Error('page bug');
      seen.push(command);
    });
    expect(seen).toEqual(['good']);
  });

  it('does nothing without a queue', () => {
    expect(() => drainQueue(undefined, () => expect.unreachable())).not.toThrow();
  });
});

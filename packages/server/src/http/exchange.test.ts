import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type ky from 'ky';
import type { Input, Options } from 'ky';
import { client, ok, platformError, url, useMsw } from '../../test/support/msw';
import type { SvcLogEvent } from '../logging/log';

// Every call ky is given, recorded on its way to the real ky: the requests below still go out through ky.
const kyCalls = vi.hoisted(() => [] as Array<{ input: Input; options: Options }>);
vi.mock('ky', async (importOriginal) => {
  const { default: real } = await importOriginal<{ default: typeof ky }>();
  return { default: (input: Input, options: Options) => (kyCalls.push({ input, options }), real(input, options)) };
});

const server = useMsw();
const readiness = url('/api/v1/programs/me/readiness');

describe('the transport', () => {
  it('is ky, one ky request per attempt of our loop, with ky retrying nothing and throwing on no status', async () => {
    kyCalls.length = 0;
    const answers = [
      () => platformError(503, 'ServiceUnavailableError', 'Service unavailable'),
      () => platformError(503, 'ServiceUnavailableError', 'Service unavailable'),
      () => ok({ ready: true }),
    ];
    let seen = 0;
    server.use(http.get(readiness, () => answers[seen++]!()));
    const events: SvcLogEvent[] = [];
    // A GET answered 503 is what ky's own retry would repeat: only our loop may do it here.
    expect(await client({ logger: (event) => events.push(event) }).readiness()).toMatchObject({ ready: true });
    expect(seen).toBe(3);
    expect(kyCalls.map(({ input }) => input)).toEqual([readiness, readiness, readiness]);
    for (const { options } of kyCalls) {
      expect(options).toMatchObject({ method: 'GET', retry: 0, timeout: false, throwHttpErrors: false });
      // The call's one deadline aborts every attempt.
      expect(options.signal).toBe(kyCalls[0]!.options.signal);
    }
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(2);
  });

  it("logs each request from ky's beforeRequest hook, as it leaves: the headers ky set included", async () => {
    kyCalls.length = 0;
    server.use(http.post(url('/api/v1/track/click'), () => ok({ success: true, click_id: 'clk_1' })));
    const events: SvcLogEvent[] = [];
    await client({ logger: (event) => events.push(event) }).track.click({ affiliate_url: 'https://shop.test/?aff=a' });
    expect(kyCalls).toHaveLength(1);
    expect(kyCalls[0]!.options.headers).not.toHaveProperty('content-type');
    const request = events.find((event) => event.type === 'request');
    expect(request?.type === 'request' && request.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer [redacted]',
    });
  });
});

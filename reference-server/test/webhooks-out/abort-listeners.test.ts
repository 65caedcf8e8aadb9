import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { startReceiver, waitFor, type Receiver } from './receiver';
import { addEndpoint, shop } from './support';

// Many attempts on their way at once (a slow endpoint and a backlog of retries) must not pile listeners onto one
// long-lived AbortSignal: Node warns past 10 ("MaxListenersExceededWarning: … 11 abort listeners added to
// [AbortSignal]"), which production servers printed once enough retries came due together.
let h: Harness;
let r: Receiver;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  h = await createHarness();
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await h.close();
});
beforeEach(async () => {
  await h.control.reset();
  r = await startReceiver();
});
afterEach(() => r.close());

describe('attempts on their way at once', () => {
  it('add no more than one abort listener each to any signal: 12 hanging attempts, no MaxListenersExceededWarning', async () => {
    const s = await shop(h);
    const endpoint = await addEndpoint(s, r);
    r.answer = () => 'hang';
    for (let i = 0; i < 12; i++) expect((await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`)).status).toBe(202);
    await waitFor('12 attempts on their way at once', () => r.received.length >= 12, 5_000);
    // The warning is emitted on the next turn after the 11th listener.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});

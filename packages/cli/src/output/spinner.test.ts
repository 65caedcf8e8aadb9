import { describe, expect, it, vi } from 'vitest';
import { colours } from './colour';
import { startSpinner } from './spinner';

describe('startSpinner', () => {
  it('redraws one line per frame and ends with the final line', () => {
    vi.useFakeTimers();
    let written = '';
    const spin = startSpinner({ write: (chunk: string) => (written += chunk) }, colours(false), 'Waiting', 100);
    vi.advanceTimersByTime(250);
    spin.message('Still waiting');
    vi.advanceTimersByTime(100);
    spin.stop('Done');
    vi.advanceTimersByTime(1000);
    vi.useRealTimers();
    expect(written.split('\r\u001b[2K').filter(Boolean)).toEqual(['◒  Waiting', '◐  Waiting', '◓  Waiting', '◑  Still waiting', 'Done\n']);
  });
});

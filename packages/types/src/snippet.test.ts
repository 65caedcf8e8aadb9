import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { trackerQueueStub, trackerSnippet } from './snippet';

describe('tracker snippet', () => {
  it('is the queue stub and the tag, in that order', () => {
    expect(trackerSnippet('https://svc.example.com', 42)).toBe(
      `${trackerQueueStub}\n<script src="https://svc.example.com/js/svc-tracker.js" data-svc-program-id="42" async></script>`,
    );
  });

  it('is the stub the tracker README documents', async () => {
    const readme = await readFile(new URL('../../tracker/README.md', import.meta.url), 'utf8');
    expect(readme).toContain(trackerQueueStub);
  });
});

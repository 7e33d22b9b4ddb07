import { describe, expect, it } from 'vitest';
import { RetryQueue } from './retry-queue.js';

function queue(send: (job: string) => Promise<void>, permanent = (_: unknown) => false, maxQueued = 100) {
  const outcomes: string[] = [];
  const q = new RetryQueue<string>({
    name: 'test',
    send,
    classify: (err) => (permanent(err) ? 'permanent' : 'retry'),
    delaysMs: [5, 10],
    concurrency: 1,
    maxQueued,
    onOutcome: (o, job) => outcomes.push(`${job}:${o}`),
  });
  return { q, outcomes };
}

describe('delivery retries', () => {
  it('retries with back-off until it passes, and gives up after the last delay', async () => {
    let calls = 0;
    const { q, outcomes } = queue(async (job) => {
      calls++;
      if (job === 'flaky' && calls < 3) throw new Error('try later');
      if (job === 'down') throw new Error('down');
    });
    q.push('flaky');
    await q.drained();
    q.push('down');
    await q.drained();
    expect(outcomes).toEqual(['flaky:retry', 'flaky:retry', 'flaky:sent', 'down:retry', 'down:retry', 'down:failed']);
  });

  it('does not retry a refusal', async () => {
    const { q, outcomes } = queue(
      async () => {
        throw new Error('550 no such user');
      },
      () => true,
    );
    q.push('mail');
    await q.drained();
    expect(outcomes).toEqual(['mail:failed']);
  });

  it('is bounded: past its size the oldest waiting job is dropped; stopping drops what waits', async () => {
    let release = () => {};
    const { q, outcomes } = queue(() => new Promise<void>((r) => (release = r)), undefined, 2);
    for (const j of ['a', 'b', 'c', 'd']) q.push(j);
    expect(outcomes).toEqual(['b:dropped']);
    expect(q.depth).toBe(3);
    expect(q.stop()).toBe(2);
    release();
    await q.drained();
    expect(outcomes).toEqual(['b:dropped', 'a:sent']);
  });
});

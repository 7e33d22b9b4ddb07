import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, isChunkLoadError, loadChunk } from './lazy-chunk';

afterEach(() => vi.useRealTimers());

describe('loadChunk', () => {
  it('passes a loaded module through', async () => {
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('turns a failed import into a ChunkLoadError', async () => {
    const err = await loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))).catch((e) => e);
    expect(isChunkLoadError(err)).toBe(true);
    expect((err as ChunkLoadError).reason).toBe('failed');
  });

  it('times out after 120 s', async () => {
    vi.useFakeTimers();
    const p = loadChunk(() => new Promise(() => {}));
    const caught = p.catch((e: unknown) => e as ChunkLoadError);
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void caught.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await caught) as ChunkLoadError;
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect(err.reason).toBe('timeout');
  });
});

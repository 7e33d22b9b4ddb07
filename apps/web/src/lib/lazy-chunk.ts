import { SCRIPT_CHUNK_TIMEOUT_MS } from '@phasewatch/shared';

/** A script or style chunk that failed to load, or did not load within the time limit. */
export class ChunkLoadError extends Error {
  constructor(
    message: string,
    readonly reason: 'failed' | 'timeout',
  ) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

/** Loads a chunk; fails with ChunkLoadError when loading fails or takes over 120 s (spec section 8). */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = SCRIPT_CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`chunk load timed out after ${timeoutMs} ms`, 'timeout')), timeoutMs);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(err instanceof Error ? err.message : String(err), 'failed'));
      },
    );
  });
}

export function isChunkLoadError(err: unknown): err is ChunkLoadError {
  return err instanceof ChunkLoadError || (err instanceof Error && err.name === 'ChunkLoadError');
}

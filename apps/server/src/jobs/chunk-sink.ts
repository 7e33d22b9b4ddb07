import { Writable } from 'node:stream';

/** Bytes per stored piece of a job's file: big enough for few rows, small enough to hold one in memory. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Where a file's bytes go while it is written: pieces of `CHUNK_BYTES` stored one after the other. One
 * store is under way while the next piece fills (the writer waits only when a second one is full), so
 * memory holds at most two pieces whatever the file's size.
 */
export class ChunkSink extends Writable {
  private parts: Buffer[] = [];
  private pending = 0;
  private seq = 0;
  private storing: Promise<void> = Promise.resolve();
  /** Bytes written so far. */
  size = 0;

  constructor(private readonly save: (seq: number, data: Buffer) => Promise<void>) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  /** Pieces stored so far. */
  get chunks(): number {
    return this.seq;
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.parts.push(buf);
    this.pending += buf.length;
    this.size += buf.length;
    if (this.pending < CHUNK_BYTES) {
      cb();
      return;
    }
    // Wait for the store before this one, then hand this piece over without waiting for it.
    this.storing.then(() => {
      this.storing = this.store();
      // Its failure is reported by the next write or the end.
      this.storing.catch(() => {});
      cb();
    }, cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.storing.then(() => this.store()).then(() => cb(), cb);
  }

  private async store(): Promise<void> {
    if (this.pending === 0) return;
    const data = Buffer.concat(this.parts, this.pending);
    this.parts = [];
    this.pending = 0;
    await this.save(this.seq++, data);
  }
}

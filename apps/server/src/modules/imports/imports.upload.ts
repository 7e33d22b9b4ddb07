import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { IMPORT_MAX_LINE_BYTES } from '@phasewatch/shared';
import { ApiError, keyedError } from '../../http/errors.js';

/*
 * An uploaded file onto disk, checked while it streams: nothing of it is held in memory beyond a piece.
 * A gzip file is unpacked on the way (its unpacked size counts against the limit, so a bomb stops at the
 * limit); a zip archive, a binary file, a line longer than IMPORT_MAX_LINE_BYTES or more lines than the
 * row limit stop the upload at once.
 */

export interface UploadLimits {
  maxBytes: number;
  maxRows: number;
}

export interface StoredUpload {
  path: string;
  bytes: number;
  lines: number;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const GZIP = Buffer.from([0x1f, 0x8b]);

/** The checks on the file's (unpacked) bytes as they pass. */
function guard(limits: UploadLimits, stats: { bytes: number; lines: number }) {
  return async function* check(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let sinceNewline = 0;
    let first = true;
    for await (const buf of source) {
      if (first) {
        first = false;
        if (buf.subarray(0, 8192).includes(0)) throw keyedError(400, 'errors.importNotText', { field: 'file' });
      }
      stats.bytes += buf.length;
      if (stats.bytes > limits.maxBytes) throw keyedError(413, 'errors.importTooLarge', { field: 'file' });
      let at = 0;
      for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, at)) {
        if (sinceNewline + (i - at) > IMPORT_MAX_LINE_BYTES) throw keyedError(400, 'errors.importLineTooLong', { field: 'file' });
        sinceNewline = 0;
        stats.lines++;
        at = i + 1;
      }
      sinceNewline += buf.length - at;
      if (sinceNewline > IMPORT_MAX_LINE_BYTES) throw keyedError(400, 'errors.importLineTooLong', { field: 'file' });
      // The header and a few blank lines beside the rows.
      if (stats.lines > limits.maxRows + 100) throw keyedError(413, 'errors.importTooManyRows', { field: 'file' });
      yield buf;
    }
  };
}

/** Streams `file` into a new file under `dir`; on any failure nothing is left there. */
export async function storeUpload(file: Readable, dir: string, limits: UploadLimits): Promise<StoredUpload> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, `${randomUUID()}.csv`);
  const stats = { bytes: 0, lines: 0 };
  const iter = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    // The first bytes say what the file is.
    let head = Buffer.alloc(0);
    let done = false;
    while (head.length < 4 && !done) {
      const r = await iter.next();
      if (r.done) done = true;
      else head = Buffer.concat([head, r.value]);
    }
    if (head.subarray(0, 4).equals(ZIP)) throw keyedError(400, 'errors.importCompressed', { field: 'file' });
    const gz = head.subarray(0, 2).equals(GZIP);
    const rest = Readable.from(
      (async function* () {
        if (head.length) yield head;
        if (done) return;
        for (;;) {
          const r = await iter.next();
          if (r.done) return;
          yield r.value;
        }
      })(),
      { objectMode: false },
    );
    const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
    if (gz) await pipeline(rest, createGunzip(), guard(limits, stats), out);
    else await pipeline(rest, guard(limits, stats), out);
    return { path: target, ...stats };
  } catch (err) {
    await unlink(target).catch(() => {});
    // The rest of the part is not read: the request's answer closes the connection.
    file.destroy();
    if (err instanceof ApiError) throw err;
    const e = err as { statusCode?: number; code?: string };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE') throw keyedError(413, 'errors.importTooLarge', { field: 'file' });
    if (e.code === 'Z_DATA_ERROR' || e.code === 'Z_BUF_ERROR') throw keyedError(400, 'errors.importNotText', { field: 'file' });
    throw err;
  }
}

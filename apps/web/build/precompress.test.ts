// @vitest-environment node
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes brotli and gzip copies of text files that decompress to the original, and skips the rest', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pw-precompress-'));
    mkdirSync(path.join(dir, 'assets'));
    const js = `export const a = ${JSON.stringify('x'.repeat(5000))};\n`.repeat(3);
    writeFileSync(path.join(dir, 'assets', 'index-abc.js'), js);
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html>${'<p>hello</p>'.repeat(200)}`);
    writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
    writeFileSync(path.join(dir, 'assets', 'index-abc.js.map'), '{}'.repeat(2000));
    writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(4000, 1));

    const done = await precompressDir(dir);
    expect(done.map((d) => d.file)).toEqual([path.join('assets', 'index-abc.js'), 'index.html']);
    const file = path.join(dir, 'assets', 'index-abc.js');
    expect(zlib.brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(js);
    expect(zlib.gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(js);
    for (const d of done) expect(d.br).toBeLessThan(d.bytes / 4);
    for (const skipped of ['tiny.css', 'assets/index-abc.js.map', 'logo.png']) {
      expect(existsSync(path.join(dir, `${skipped}.br`)), skipped).toBe(false);
    }
  });
});

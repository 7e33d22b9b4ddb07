import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import os from 'node:os';
import path from 'node:path';

/** A request the push endpoint received. */
export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
}

/**
 * A push service stand-in for tests: an HTTPS server on 127.0.0.1 with a throw-away certificate (made by
 * openssl for IP 127.0.0.1; `caFile` is what the server under test must trust, through
 * NODE_EXTRA_CA_CERTS, which Node reads only at process start: so the built server runs as a child
 * process). Paths under `/gone/` answer 410 like a push service whose subscription expired; others 201.
 */
export async function startPushReceiver(): Promise<{
  origin: string;
  caFile: string;
  requests: PushRequest[];
  waitFor(pathPrefix: string, count?: number, timeoutMs?: number): Promise<PushRequest[]>;
  close(): Promise<void>;
}> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-push-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const requests: PushRequest[] = [];
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      res.statusCode = (req.url ?? '').startsWith('/gone/') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    origin: `https://127.0.0.1:${port}`,
    caFile: cert,
    requests,
    async waitFor(pathPrefix, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = requests.filter((r) => r.path.startsWith(pathPrefix));
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`expected ${count} push requests to ${pathPrefix}, got ${found.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser's side of a push subscription: its P-256 key pair and authentication secret (RFC 8291). */
export function browserKeys(): { p256dh: string; auth: string; decrypt(body: Buffer): Buffer } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const uaPublic = ecdh.getPublicKey();
  const authSecret = randomBytes(16);
  return {
    p256dh: uaPublic.toString('base64url'),
    auth: authSecret.toString('base64url'),
    /** Decrypts an `aes128gcm` body (RFC 8188 header, RFC 8291 keys) as a browser would: written here from the RFCs, not with the sender's library. */
    decrypt(body: Buffer): Buffer {
      const salt = body.subarray(0, 16);
      const idLen = body[20] as number;
      const asPublic = body.subarray(21, 21 + idLen);
      const ciphertext = body.subarray(21 + idLen);
      const ecdhSecret = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
      const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      if (padded[end] !== 2) throw new Error('no last-record delimiter');
      return padded.subarray(0, end);
    },
  };
}

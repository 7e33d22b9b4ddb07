import { SMTPServer } from 'smtp-server';

/** A mail as a test reads it: envelope, headers, and the decoded text and HTML parts. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A throw-away SMTP server on a free loopback port (the `smtp-server` library, plain SMTP, no auth) that
 * keeps what it receives: the tests' mail server for `SMTP_URL`. `failNext(n, code)` refuses the next n
 * messages (a server that is restarting answers 4xx).
 */
export async function startSmtpSink(): Promise<{
  url: string;
  mails: ReceivedMail[];
  failNext(n: number, code?: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  let failCode = 451;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          callback(Object.assign(new Error('try again later'), { responseCode: failCode }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMime(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    failNext(n, code = 451) {
      failures = n;
      failCode = code;
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers, the subject (RFC 2047 words decoded), and the text/plain and text/html parts (quoted-printable or base64 decoded). */
function parseMime(raw: string): { subject: string; text: string; html: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = unfold(head);
  const subject = decodeWords(headers.subject ?? '');
  const body = rest.join('\r\n\r\n');
  const type = headers['content-type'] ?? 'text/plain';
  const parts: { type: string; text: string }[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const [ph = '', ...pb] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const h = unfold(ph);
      parts.push({ type: h['content-type'] ?? 'text/plain', text: decodeBody(pb.join('\r\n\r\n'), h['content-transfer-encoding']) });
    }
  } else parts.push({ type, text: decodeBody(body, headers['content-transfer-encoding']) });
  const of = (t: string) => parts.find((p) => p.type.startsWith(t))?.text.trim() ?? '';
  return { subject, text: of('text/plain'), html: of('text/html') };
}

function unfold(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function decodeBody(body: string, encoding = '7bit'): string {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (e === 'quoted-printable') return quotedPrintable(body);
  return body;
}

function quotedPrintable(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')),
    );
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchRceDay, parseRceCsv, rowsOfPage } from './rce-import.js';

const Q = 15 * 60_000;

describe('RCE from PSE and CSV', () => {
  it('keys API rows by the period start in UTC (dtime_utc is the end), keeps negative prices, follows nextLink', () => {
    const { rows, next } = rowsOfPage({
      value: [
        { dtime: '2024-06-14 00:15:00', dtime_utc: '2024-06-13 22:15:00', rce_pln: 876.1, publication_ts_utc: '2024-06-13 15:05:05' },
        { dtime_utc: '2025-10-26 01:15:00', rce_pln: -12.5 },
        { dtime_utc: 'not a time', rce_pln: 1 },
      ],
      nextLink: 'http://127.0.0.1/next',
    });
    expect(rows).toEqual([
      { ts: Date.UTC(2024, 5, 13, 22, 0), price: 876.1, publishedAt: Date.UTC(2024, 5, 13, 15, 5, 5) },
      { ts: Date.UTC(2025, 9, 26, 1, 0), price: -12.5, publishedAt: null },
    ]);
    expect(next).toBe('http://127.0.0.1/next');
  });

  it('fetches a day from a fake API on 127.0.0.1 with a retry after a failure and a second page', async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      calls++;
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (calls === 1) {
        res.writeHead(503).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/rce-pln') {
        expect(url.searchParams.get('$filter')).toBe("business_date eq '2025-10-02'");
        const port = (server.address() as AddressInfo).port;
        res.end(
          JSON.stringify({ value: [{ dtime_utc: '2025-10-01 22:15:00', rce_pln: 100 }], nextLink: `http://127.0.0.1:${port}/page2` }),
        );
      } else res.end(JSON.stringify({ value: [{ dtime_utc: '2025-10-01 22:30:00', rce_pln: -5 }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const rows = await fetchRceDay(`http://127.0.0.1:${port}/api/rce-pln`, '2025-10-02', { retryMs: 10 });
      expect(rows.map((r) => [r.ts, r.price])).toEqual([
        [Date.UTC(2025, 9, 1, 22, 0), 100],
        [Date.UTC(2025, 9, 1, 22, 15), -5],
      ]);
      expect(calls).toBe(3);
    } finally {
      server.close();
    }
  });

  it('parses a CSV by its header (end or start column, comma or semicolon, decimal comma) and names a bad line', () => {
    const end = parseRceCsv('dtime_utc;rce_pln\n2025-10-01 22:15:00;100,5\n2025-10-01 22:30;-3\n');
    expect(end).toEqual({
      rows: [
        { ts: Date.UTC(2025, 9, 1, 22, 0), price: 100.5, publishedAt: null },
        { ts: Date.UTC(2025, 9, 1, 22, 15), price: -3, publishedAt: null },
      ],
      refused: [],
    });
    const start = parseRceCsv('start_utc,rce_pln\n2025-10-01T22:00:00Z,7');
    expect('rows' in start && start.rows[0]?.ts).toBe(Date.UTC(2025, 9, 1, 22, 0));
    expect(parseRceCsv('time,price\n1,2')).toEqual({ line: 1 });
    expect(parseRceCsv('\nprice;when\n1;2')).toEqual({ line: 2 });
    // Bad lines are refused with their number and reason; the good ones are kept.
    expect(
      parseRceCsv('dtime_utc,rce_pln\n2025-10-01 22:15,abc\n\nyesterday,5\n2025-10-01 22:30,7\n2025-10-01 22:30,8\n2025-10-01 22:45'),
    ).toEqual({
      rows: [{ ts: Date.UTC(2025, 9, 1, 22, 15), price: 7, publishedAt: null }],
      refused: [
        { line: 2, reason: 'price' },
        { line: 4, reason: 'time' },
        { line: 6, reason: 'duplicate' },
        { line: 7, reason: 'columns' },
      ],
    });
    expect(Q).toBe(900_000);
  });
});

import { ingestRequestSchema } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { ingestExamples } from './ingest-examples';

describe('ingestExamples', () => {
  const opts = { origin: 'http://127.0.0.1:8080', key: 'pwd_secret', mac: 'AA:BB:CC:DD:EE:01', now: Date.UTC(2026, 10, 26, 12, 0, 0, 456) };

  it('fills the HTTP example with the key, the server and a valid reading of the device kind', () => {
    const ex = ingestExamples({ ...opts, typeCode: 17 });
    expect(ex.http).toContain('curl -s -X POST http://127.0.0.1:8080/api/ingest');
    expect(ex.http).toContain("-H 'x-device-key: pwd_secret'");
    const body = JSON.parse(ex.body);
    expect(ingestRequestSchema.safeParse(body).success).toBe(true);
    expect(body.readings[0]).toEqual({ ts: '2026-11-26T12:00:00Z', values: { tempmain: 21.4, tempset: 21.5, rel1: 1 } });
    expect(ex.http).toContain(`-d '${ex.body}'`);
  });

  it('publishes the same reading with the key on the device topic over MQTT', () => {
    const ex = ingestExamples({ ...opts, typeCode: 13 });
    expect(ex.topic).toBe('phasewatch/AA:BB:CC:DD:EE:01/readings');
    const payload = JSON.parse(/-m '(.*)'$/m.exec(ex.mqtt)?.[1] ?? '{}');
    expect(payload.key).toBe('pwd_secret');
    expect(payload.readings).toEqual(JSON.parse(ex.body).readings);
  });
});

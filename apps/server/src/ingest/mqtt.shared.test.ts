import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { signUp } from '../test/app.js';
import { useOwnBroker } from '../test/broker.js';
import { buildTestDeployment, type TestDeployment } from '../test/instances.js';
import { mqttSubscription } from './mqtt.subscriber.js';

const MIN = 60_000;
const N = 80;

const broker = useOwnBroker();

/** Two instances on one PostgreSQL and one real Mosquitto: each message handled once, by either. */
describe('MQTT readings with several instances', () => {
  const deployments: TestDeployment[] = [];
  afterAll(async () => {
    for (const d of deployments) await d.close();
  });

  const run = async (shareGroup: string) => {
    const dep = await buildTestDeployment(2, { mqttUrl: broker.url(), mqttShareGroup: shareGroup });
    deployments.push(dep);
    const [a, b] = dep.instances as [(typeof dep.instances)[0], (typeof dep.instances)[0]];
    const user = await signUp(a.app);
    const mac = shareGroup ? '20:00:00:00:00:01' : '20:00:00:00:00:02';
    const res = await a.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode: 20 } });
    const d = res.json() as { device: { id: number; mac: string }; ingestKey: string };
    const client = await mqtt.connectAsync(broker.url(), { protocolVersion: 5 });
    const base = Date.now() - 2 * N * MIN;
    for (let i = 0; i < N; i++)
      await client.publishAsync(
        `phasewatch/${d.device.mac.replaceAll(':', '')}/readings`,
        JSON.stringify({ key: d.ingestKey, readings: [{ ts: new Date(base + i * MIN).toISOString(), values: { vave1: 230 + (i % 10) } }] }),
        { qos: 1 },
      );
    await client.endAsync();
    const sa = a.ctx.telemetry.mqtt?.stats;
    const sb = b.ctx.telemetry.mqtt?.stats;
    if (!sa || !sb) throw new Error('both instances have MQTT_URL');
    const expected = shareGroup ? N : 2 * N;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && sa.accepted + sa.rejected + sb.accepted + sb.rejected < expected)
      await new Promise((r) => setTimeout(r, 50));
    // A moment more: a duplicate delivered late would show here.
    await new Promise((r) => setTimeout(r, 300));
    await a.ctx.telemetry.writer.flushed();
    await b.ctx.telemetry.writer.flushed();
    const stored = await a.ctx.storage.db
      .selectFrom('readings')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', '=', d.device.id)
      .executeTakeFirstOrThrow();
    return { sa, sb, stored: Number(stored.n) };
  };

  it('subscribes as $share/<group>/phasewatch/+/readings, or plainly with an empty group', () => {
    expect(mqttSubscription('phasewatch')).toBe('$share/phasewatch/phasewatch/+/readings');
    expect(mqttSubscription('')).toBe('phasewatch/+/readings');
  });

  it('hands each message to exactly one instance of the share group, and both take a share', async () => {
    const { sa, sb, stored } = await run('phasewatch');
    expect(sa.received + sb.received).toBe(N);
    expect(sa.accepted + sb.accepted).toBe(N);
    expect(sa.rejected + sb.rejected).toBe(0);
    expect(sa.accepted).toBeGreaterThan(0);
    expect(sb.accepted).toBeGreaterThan(0);
    expect(stored).toBe(N);
  });

  it('without a share group every instance handles every message (the broker without shared subscriptions)', async () => {
    const { sa, sb, stored } = await run('');
    expect(sa.received).toBe(N);
    expect(sb.received).toBe(N);
    expect(stored).toBe(N);
  });
});

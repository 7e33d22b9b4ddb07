import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/app.js';
import { fakeFox } from '../../test/collectors/fake-devices.js';
import { buildTestDeployment, type TestDeployment, type TestInstance } from '../../test/instances.js';
import { rendezvousOwner } from './collectors.membership.js';

const DEVICES = 12;
const TIMINGS = { tickMs: 300, staleMs: 1_500 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rendezvous owner', () => {
  it('is the same whatever the order of the members, and moves only the devices the joiner wins', () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const two = ids.map((d) => rendezvousOwner(['a', 'b'], d));
    expect(ids.map((d) => rendezvousOwner(['b', 'a'], d))).toEqual(two);
    const three = ids.map((d) => rendezvousOwner(['a', 'b', 'c'], d));
    // Every device that moved went to c; about a third did.
    for (let i = 0; i < ids.length; i++) if (three[i] !== two[i]) expect(three[i]).toBe('c');
    const moved = three.filter((o) => o === 'c').length;
    expect(moved).toBeGreaterThan(60);
    expect(moved).toBeLessThan(140);
    expect(rendezvousOwner([], 1)).toBeUndefined();
  });
});

/** Several instances on one PostgreSQL, fake Fox meters on 127.0.0.1 polled every second. */
describe('collected devices with several instances', () => {
  let dep: TestDeployment;
  const foxes: ReturnType<typeof fakeFox>[] = [];
  const polls = () => foxes.map((f) => f.requests.filter((p) => p.endsWith('/get_current_parameters')).length);
  const readers = (instances: TestInstance[]) => instances.map((i) => new Set(i.ctx.telemetry.collectors.readingHere()));

  /** Every device read by exactly one of the instances, and each instance reading some. */
  const expectPartition = (instances: TestInstance[], ids: number[]) => {
    const sets = readers(instances);
    for (const id of ids) expect(sets.filter((s) => s.has(id)).length, `readers of device ${id}`).toBe(1);
    for (const s of sets) expect(s.size).toBeGreaterThan(0);
  };

  /** Polls of each device over `ms`: one poller at 1 s gives about ms/1000, two give twice that. */
  const pollsOver = async (ms: number) => {
    const before = polls();
    await sleep(ms);
    return polls().map((n, i) => n - (before[i] ?? 0));
  };

  beforeAll(async () => {
    dep = await buildTestDeployment(2);
    for (const i of dep.instances) i.ctx.telemetry.collectors.retime(TIMINGS);
  });
  afterAll(async () => {
    await dep?.close();
    for (const f of foxes) await f.stop();
  });

  it('shares the devices: each polled by one live instance; a killed one is taken over, a joining one takes its share', {
    timeout: 120_000,
  }, async () => {
    const [a, b] = dep.instances as [TestInstance, TestInstance];
    const user = await signUp(a.app);
    const ids: number[] = [];
    for (let n = 0; n < DEVICES; n++) {
      const fox = await fakeFox('1234').start();
      foxes.push(fox);
      const res = await (n % 2 ? b : a).app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: user.auth,
        payload: { name: `Fox ${n}`, typeCode: 13, source: { kind: 'fox-energy', address: fox.url, key: '1234', pollSeconds: 1 } },
      });
      expect(res.statusCode).toBe(200);
      ids.push((res.json() as { device: { id: number } }).device.id);
    }
    // Devices added on the instance that does not own them are started by their owner at its next tick.
    await expect.poll(() => readers([a, b]).reduce((n, s) => n + s.size, 0), { timeout: 5_000 }).toBe(DEVICES);
    expectPartition([a, b], ids);
    // The writer threads start with the first write (slow under a test run's load): measure once readings flow.
    const polling = (instances: TestInstance[]) =>
      ids.filter((id) => instances.some((i) => i.ctx.telemetry.collectors.runner.status(id)?.state === 'polling')).length;
    await expect.poll(() => polling([a, b]), { timeout: 30_000 }).toBe(DEVICES);
    let counts = await pollsOver(3_000);
    for (const c of counts) expect(c).toBeGreaterThanOrEqual(2);
    for (const c of counts) expect(c).toBeLessThanOrEqual(4);

    // B dies without a word: its devices are A's once its heartbeat is stale (here 1.5 s; in production 15 s).
    const killedAt = Date.now();
    await b.ctx.telemetry.collectors.haltWithoutLeaving();
    await expect.poll(() => readers([a])[0]?.size, { timeout: 10_000, interval: 50 }).toBe(DEVICES);
    expect(Date.now() - killedAt).toBeLessThan(TIMINGS.staleMs + 3 * TIMINGS.tickMs + 1_000);
    counts = await pollsOver(3_000);
    for (const c of counts) expect(c).toBeGreaterThanOrEqual(2);
    for (const c of counts) expect(c).toBeLessThanOrEqual(4);

    // C joins: it takes its share, A lets it go; still one poller each.
    const c = await dep.add();
    c.ctx.telemetry.collectors.retime(TIMINGS);
    await expect.poll(() => readers([c])[0]?.size ?? 0, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    await sleep(2 * TIMINGS.tickMs);
    expectPartition([a, c], ids);
    await expect.poll(() => polling([a, c]), { timeout: 30_000 }).toBe(DEVICES);
    counts = await pollsOver(3_000);
    for (const n of counts) expect(n).toBeLessThanOrEqual(4);
    for (const n of counts) expect(n).toBeGreaterThanOrEqual(2);
  });

  it('COLLECTORS=off: an instance reads nothing, and takes no share from the others', async () => {
    const off = await dep.add({ collectors: false });
    await sleep(3 * TIMINGS.tickMs);
    expect(off.ctx.telemetry.collectors.readingHere()).toEqual([]);
  });
});

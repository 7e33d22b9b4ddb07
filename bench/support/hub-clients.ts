/*
 * Load clients of the realtime hub for benchmarks: raw `ws` sockets speaking the hub protocol (negotiate,
 * handshake, invocation, pings), lighter than thousands of official clients in one process (the official
 * client is covered by the tests).
 */
import WebSocket from 'ws';

export const RS = '\x1e';
const HUB_PATH = '/hubs/dashboardHub';

export const now = () => performance.timeOrigin + performance.now();

/** Arrival times of pushed readings (`ts` of the reading as the sender stamped it). */
export class Recorder {
  latencies: number[] = [];
  received = 0;
  firstAt = 0;
  lastAt = 0;
  record(ts: number) {
    const t = now();
    if (this.received === 0) this.firstAt = t;
    this.lastAt = t;
    this.received++;
    this.latencies.push(t - ts);
  }
  reset() {
    this.latencies = [];
    this.received = 0;
    this.firstAt = 0;
    this.lastAt = 0;
  }
}

/** Hub frames of a socket: invocations carrying a reading go to the recorder, the rest to `onOther`. */
export function onFrames(ws: WebSocket, rec: Recorder, onOther?: (msg: { type: number; invocationId?: string }) => void) {
  ws.on('message', (data) => {
    const text = data.toString();
    for (const r of text.split(RS)) {
      if (!r) continue;
      const msg = JSON.parse(r) as { type: number; target?: string; arguments?: { ts: number }[]; invocationId?: string };
      // Readings only: status events (deviceStatus) are invocations too, without a reading's time.
      if (msg.type !== 1) onOther?.(msg);
      else if (msg.target === 'liveMeasurement' && msg.arguments?.[0]) rec.record(msg.arguments[0].ts);
    }
  });
}

/**
 * A raw hub client: negotiate, WebSocket, handshake, SubscribeDevice(deviceId); resolves once subscribed.
 * Messages other than readings after that go to `onOther` (completions of later calls, closes).
 */
export async function openHubClient(
  port: number,
  token: string,
  deviceId: number,
  rec: Recorder,
  onOther?: (msg: { type: number; invocationId?: string }) => void,
): Promise<WebSocket> {
  const base = `http://127.0.0.1:${port}${HUB_PATH}`;
  const res = await fetch(`${base}/negotiate?negotiateVersion=1`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`negotiate: ${res.status}`);
  const { connectionToken } = (await res.json()) as { connectionToken: string };
  const ws = new WebSocket(`${base.replace('http', 'ws')}?id=${connectionToken}&access_token=${encodeURIComponent(token)}`, {
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => {
    let step = 0;
    onFrames(ws, rec, (msg) => {
      if (step === 0) {
        step = 1;
        ws.send(`{"type":1,"invocationId":"0","target":"SubscribeDevice","arguments":[${deviceId}]}${RS}`);
      } else if (step === 1 && msg.type === 3 && msg.invocationId === '0') {
        step = 2;
        resolve();
      } else if (step === 2) onOther?.(msg);
    });
    ws.once('open', () => ws.send(`{"protocol":"json","version":1}${RS}`));
    ws.once('error', reject);
  });
  return ws;
}

/** `fn` over `items`, `size` at a time. */
export async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** The p-th percentile of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

import { setTimeout as sleep } from 'node:timers/promises';
import { ingestBody } from './serialize.js';

/** A device as the server lists it (only the fields the simulator relies on). */
export interface RemoteDevice {
  id: number | string;
  name: string;
  mac: string;
  typeCode: number;
  model?: string;
}

/** What registering a device answers: the device and its ingest key, which is never shown again. */
export interface Registration {
  device: RemoteDevice;
  ingestKey: string;
}

/** An HTTP answer the simulator cannot recover from (a bug or a misconfiguration, not a busy server). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Ingest requests retry this often on network errors, 429 and 5xx before giving up. */
const MAX_ATTEMPTS = 8;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function asDevice(x: unknown): RemoteDevice | null {
  if (!isRecord(x)) return null;
  const id = x.id;
  if (typeof id !== 'number' && typeof id !== 'string') return null;
  return {
    id,
    name: typeof x.name === 'string' ? x.name : '',
    mac: typeof x.mac === 'string' ? x.mac : '',
    typeCode: typeof x.typeCode === 'number' ? x.typeCode : Number(x.typeCode ?? 0),
    ...(typeof x.model === 'string' ? { model: x.model } : {}),
  };
}

/**
 * The public HTTP API as a device fleet sees it: sign in, list and register devices, ingest readings.
 * Ingest retries transient failures with backoff and splits a batch the server finds too large (413).
 */
export class PhasewatchClient {
  private readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private async json(res: Response, what: string): Promise<unknown> {
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, `${what}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  /** Signs in and returns the access token. */
  async login(email: string, password: string, signal?: AbortSignal): Promise<string> {
    const res = await fetch(`${this.base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
      ...(signal ? { signal } : {}),
    });
    const body = await this.json(res, 'sign in');
    const token = isRecord(body) ? body.token : undefined;
    if (typeof token !== 'string') throw new ApiError(res.status, 'sign in: no token in the answer');
    return token;
  }

  /** The signed-in user's devices. */
  async listDevices(token: string, signal?: AbortSignal): Promise<RemoteDevice[]> {
    const res = await fetch(`${this.base}/api/devices`, {
      headers: { authorization: `Bearer ${token}` },
      ...(signal ? { signal } : {}),
    });
    const body = await this.json(res, 'list devices');
    // Tolerate a wrapped list ({devices:[…]} or {items:[…]}) should the server settle on one.
    const list = Array.isArray(body) ? body : isRecord(body) ? (body.devices ?? body.items ?? body.data) : undefined;
    if (!Array.isArray(list)) throw new ApiError(res.status, 'list devices: not a list');
    return list.map(asDevice).filter((d): d is RemoteDevice => d !== null);
  }

  /** Registers a device; the answer carries its ingest key. */
  async registerDevice(
    token: string,
    device: {
      name: string;
      mac: string;
      typeCode: number;
      model: string;
      reportingIntervalSeconds?: number;
      billingStartDate?: string;
    },
    signal?: AbortSignal,
  ): Promise<Registration> {
    const res = await fetch(`${this.base}/api/devices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(device),
      ...(signal ? { signal } : {}),
    });
    const body = await this.json(res, 'register device');
    if (!isRecord(body)) throw new ApiError(res.status, 'register device: unexpected answer');
    const registered = asDevice(body.device) ?? asDevice(body);
    const key = body.ingestKey ?? body.key ?? (isRecord(body.device) ? body.device.ingestKey : undefined);
    if (!registered || typeof key !== 'string') throw new ApiError(res.status, 'register device: no device or ingest key in the answer');
    return { device: registered, ingestKey: key };
  }

  /**
   * Sends serialised readings (see `ReadingSerializer`) with the device's key and resolves with the number
   * accepted, once the server has committed them.
   */
  async ingest(key: string, readings: readonly string[], signal?: AbortSignal, maxAttempts = MAX_ATTEMPTS): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let res: Response;
      try {
        res = await fetch(`${this.base}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': key },
          body: ingestBody(readings),
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        if (signal?.aborted || attempt >= maxAttempts) throw err;
        await sleep(backoff(attempt), undefined, signal ? { signal } : {});
        continue;
      }
      if (res.status === 413 && readings.length > 1) {
        await res.body?.cancel();
        const half = Math.ceil(readings.length / 2);
        return (
          (await this.ingest(key, readings.slice(0, half), signal, maxAttempts)) +
          (await this.ingest(key, readings.slice(half), signal, maxAttempts))
        );
      }
      if ((res.status === 429 || res.status >= 500) && attempt < maxAttempts) {
        await res.body?.cancel();
        const retryAfter = Number(res.headers.get('retry-after'));
        await sleep(retryAfter > 0 ? Math.min(retryAfter * 1000, 30_000) : backoff(attempt), undefined, signal ? { signal } : {});
        continue;
      }
      const body = await this.json(res, 'ingest');
      const accepted = isRecord(body) ? body.accepted : undefined;
      return typeof accepted === 'number' ? accepted : readings.length;
    }
  }
}

function backoff(attempt: number): number {
  return Math.min(10_000, 250 * 2 ** (attempt - 1));
}

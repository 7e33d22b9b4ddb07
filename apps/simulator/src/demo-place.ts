/**
 * The demo account's locations and tariffs, so a new user sees costs at once: set up over the public API
 * (like everything the simulator does) the first time the account has no location. Prices are simulated,
 * with two price lists each so the price history shows; the first covers the whole backfilled year.
 */

/** Where each demo device goes. */
interface DemoPlace {
  name: string;
  code: string;
  address: string;
  city: string;
  timezone: string;
  slots: readonly string[];
  tariff: { name: string; group: string; presetId: string; prices: (validFrom: string) => object[] };
  /** The location's prosumer settlement (issue 33), applying from the first price list. */
  prosumer?: { scheme: string; installationKw: number };
}

/** The energy part of a simulated price (what a prosumer deposit pays; issue 33): about 55 % of it. */
const energyPart = (p: number | null) => (p === null ? null : Math.round(p * 0.55 * 10_000) / 10_000);
const price = (validFrom: string, area1: number, area2: number | null, fixedMonthly: number) => ({
  validFrom,
  area1,
  area2,
  area3: null,
  fixedMonthly,
  energyArea1: energyPart(area1),
  energyArea2: energyPart(area2),
});

export const DEMO_PLACES: readonly DemoPlace[] = [
  {
    name: 'Home',
    code: 'HOME',
    address: 'ul. Lipowa 12',
    city: 'Kraków',
    timezone: 'Europe/Warsaw',
    slots: ['home-meter', 'solar', 'thermostat'],
    tariff: {
      name: 'TAURON G12',
      group: 'G12',
      presetId: 'tauron-g12',
      prices: (since) => [price(since, 1.21, 0.69, 36.5), price(priceChange(since), 1.25, 0.72, 38)],
    },
    // The rooftop solar behind the main meter: a net-billing prosumer settled at the monthly RCEm.
    prosumer: { scheme: 'net-billing-rcem', installationKw: 8 },
  },
  {
    name: 'Flat',
    code: 'FLAT',
    address: 'ul. Marszałkowska 5/14',
    city: 'Warszawa',
    timezone: 'Europe/Warsaw',
    slots: ['flat-meter'],
    tariff: {
      name: 'Stoen G11',
      group: 'G11',
      presetId: 'stoen-g11',
      prices: (since) => [price(since, 1.08, null, 33), price(priceChange(since), 1.1, null, 35)],
    },
  },
  {
    name: 'Workshop',
    code: 'WS-1',
    address: 'ul. Portowa 3',
    city: 'Gdańsk',
    timezone: 'Europe/Warsaw',
    slots: ['workshop-meter'],
    tariff: {
      name: 'Energa G12w',
      group: 'G12w',
      presetId: 'energa-g12w',
      prices: (since) => [price(since, 1.24, 0.73, 36.5), price(priceChange(since), 1.28, 0.75, 38)],
    },
  },
];

let clock = Date.now;
/** When the second price list starts: 1 January of this year, or the month after the first list if that is later. */
function priceChange(since: string): string {
  const newYear = `${new Date(clock()).getUTCFullYear()}-01-01`;
  const [y, m] = since.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  return next > newYear ? next : newYear;
}

export interface PlaceDemoOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** The fleet's devices by slot. */
  devices: readonly { slot: string; id: number | string }[];
  /** Days of history the fleet keeps: the first price list starts before them. */
  historyDays: number;
  now?: () => number;
}

/**
 * Creates the demo locations with their tariffs and places the fleet's devices there, unless the account
 * already has a location (the user's own choices are never overwritten). Resolves to whether it did.
 */
export async function placeDemoFleet(o: PlaceDemoOptions): Promise<boolean> {
  clock = o.now ?? Date.now;
  const base = o.baseUrl.replace(/\/+$/, '');
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo places: ${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  };
  const { token } = (await call('POST', 'account/login', null, { email: o.email, password: o.password })) as { token: string };
  if (((await call('GET', 'locations', token)) as unknown[]).length > 0) return false;
  // The first list starts on the first of the month before the history does.
  const start = new Date(clock() - (o.historyDays + 31) * 86_400_000);
  const since = `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}-01`;
  for (const p of DEMO_PLACES) {
    const { slots, tariff, prosumer, ...fields } = p;
    const loc = (await call('POST', 'locations', token, fields)) as { id: number };
    const { prices, ...t } = tariff;
    const created = (await call('POST', `locations/${loc.id}/tariffs`, token, { ...t, prices: prices(since) })) as { id: number };
    for (const d of o.devices.filter((x) => slots.includes(x.slot))) {
      await call('PUT', `devices/${d.id}`, token, { locationId: loc.id, tariffId: created.id });
    }
    if (prosumer) await call('PUT', `locations/${loc.id}/prosumer`, token, { ...prosumer, since });
  }
  return true;
}

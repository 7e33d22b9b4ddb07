import fc from 'fast-check';

/** A JSON value as requests carry it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON Schema (2020-12, as the OpenAPI 3.1 document carries it) or a part of one. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Domain words the generators mix into strings and numbers: what a random string almost never hits
 * (an existing id, a catalogue parameter, a timestamp within the ingest window, a zone, a country), so
 * well-formed requests reach the handlers' logic instead of stopping at the first check.
 */
export interface Dictionary {
  strings: readonly string[];
  numbers: readonly number[];
  /** Keys of records (a reading's values): parameter names. */
  keys: readonly string[];
}

export interface GenerateOptions {
  /** Resolves `$ref` (`#/components/schemas/...`). */
  resolve(ref: string): JsonSchema | undefined;
  dictionary: Dictionary;
  /**
   * Values by field or parameter name (`id`: the fixture's device, `from`/`to`: a recent range, `ts`: a
   * time within the ingest window), offered beside the schema's own values.
   */
  hints?: Readonly<Record<string, readonly Json[]>>;
  /** Longest array generated (schemas allow up to 5,000 readings). */
  maxItems?: number;
}

const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Values of a string schema: its pattern or format, arbitrary text of allowed length, or a dictionary word. */
function stringArbitrary(s: JsonSchema, o: GenerateOptions): fc.Arbitrary<string> {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = Math.min(num(s.maxLength) ?? 60, 200);
  const fits = (x: string) => x.length >= minLength && x.length <= (num(s.maxLength) ?? Number.POSITIVE_INFINITY);
  const words = o.dictionary.strings.filter(fits);
  // Dictionary words weigh more than random text: they are what reaches the handlers' logic.
  const options: fc.WeightedArbitrary<string>[] = [];
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern);
    options.push({ weight: 1, arbitrary: fc.stringMatching(re).filter(fits) });
    const matching = words.filter((w) => re.test(w));
    if (matching.length) options.push({ weight: 2, arbitrary: fc.constantFrom(...matching) });
  } else if (s.format === 'email') {
    options.push({ weight: 1, arbitrary: fc.emailAddress().filter(fits) });
    const emails = words.filter((w) => w.includes('@'));
    if (emails.length) options.push({ weight: 2, arbitrary: fc.constantFrom(...emails) });
  } else {
    options.push({ weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) });
    if (words.length) options.push({ weight: 3, arbitrary: fc.constantFrom(...words) });
  }
  return fc.oneof(...options);
}

function numberArbitrary(s: JsonSchema, o: GenerateOptions, integer: boolean): fc.Arbitrary<number> {
  const min =
    num(s.minimum) ?? (num(s.exclusiveMinimum) !== undefined ? (num(s.exclusiveMinimum) as number) + (integer ? 1 : 1e-9) : undefined);
  const max =
    num(s.maximum) ?? (num(s.exclusiveMaximum) !== undefined ? (num(s.exclusiveMaximum) as number) - (integer ? 1 : 1e-9) : undefined);
  const lo = min ?? (integer ? -1_000_000 : -1e9);
  const hi = max ?? (integer ? 1_000_000 : 1e9);
  const inRange = (x: number) => x >= lo && x <= hi && (!integer || Number.isInteger(x));
  const edges = [lo, hi, 0, 1, ...o.dictionary.numbers].filter(inRange);
  const range = integer
    ? fc.integer({ min: Math.max(Math.ceil(lo), Number.MIN_SAFE_INTEGER), max: Math.min(Math.floor(hi), Number.MAX_SAFE_INTEGER) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  return edges.length ? fc.oneof(range, fc.constantFrom(...edges)) : range;
}

/** Well-formed values of a schema: what the schema (not necessarily the handler) accepts. */
export function arbitraryFor(schema: unknown, o: GenerateOptions, depth = 0): fc.Arbitrary<Json> {
  if (!isSchema(schema) || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  if (typeof schema.$ref === 'string') {
    const target = o.resolve(schema.$ref);
    return depth > 8 || !target ? fc.constant(null) : arbitraryFor(target, o, depth + 1);
  }
  if ('const' in schema) return fc.constant(schema.const as Json);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length) return fc.oneof(...list.map((s) => arbitraryFor(s, o, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) return arbitraryFor(schema.allOf[0], o, depth + 1);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((t) => arbitraryFor({ ...schema, type: t }, o, depth + 1)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArbitrary(schema, o, true);
    case 'number':
      return numberArbitrary(schema, o, false);
    case 'string':
      return stringArbitrary(schema, o);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.max(minLength, Math.min(num(schema.maxItems) ?? 4, o.maxItems ?? 4));
      return fc.array(arbitraryFor(schema.items, o, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, o, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  }
}

/** The schema's values for a named field, or (twice as often) a hint for that name. */
export function withHints(name: string, arb: fc.Arbitrary<Json>, o: GenerateOptions): fc.Arbitrary<Json> {
  const hints = o.hints?.[name];
  return hints?.length ? fc.oneof({ weight: 1, arbitrary: arb }, { weight: 2, arbitrary: fc.constantFrom(...hints) }) : arb;
}

function objectArbitrary(schema: JsonSchema, o: GenerateOptions, depth: number): fc.Arbitrary<Json> {
  const props = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const shape: Record<string, fc.Arbitrary<Json>> = {};
  for (const [k, v] of Object.entries(props)) shape[k] = withHints(k, arbitraryFor(v, o, depth + 1), o);
  const fixed = fc.record(shape, { requiredKeys: required.filter((k) => k in shape) }) as fc.Arbitrary<Record<string, Json>>;
  const extra = schema.additionalProperties;
  if (!isSchema(extra)) return fixed;
  // A record (`values` of a reading): keys from propertyNames, often dictionary words.
  const keyWords = o.dictionary.keys;
  const anyKey = stringArbitrary(isSchema(schema.propertyNames) ? schema.propertyNames : { type: 'string' }, o);
  const keys = keyWords.length
    ? fc.oneof({ weight: 1, arbitrary: anyKey }, { weight: 4, arbitrary: fc.constantFrom(...keyWords) })
    : anyKey;
  return fc.tuple(fixed, fc.dictionary(keys, arbitraryFor(extra, o, depth + 1), { maxKeys: 6 })).map(([a, b]) => ({ ...b, ...a }) as Json);
}

/** Values no schema field wants: other types, extremes, long and odd text, prototype keys. */
export const strangeValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    1e308,
    -1e308,
    -1,
    0,
    -0,
    0.5,
    2 ** 31,
    2 ** 53 + 1,
    Number.MIN_VALUE,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\u202e\u0000\u0007',
    '😀'.repeat(300),
    'x'.repeat(70_000),
    '1e0',
    '0x10',
    'null',
    '__proto__',
    true,
    false,
    null,
    [],
    {},
    [[[[[[[[]]]]]]]],
    JSON.parse('{"__proto__":{"polluted":1}}') as Json,
    JSON.parse('{"constructor":{"prototype":{"polluted":1}}}') as Json,
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.double(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

/** Object keys a schema never has, prototype keys among them. */
export const strangeKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'a'.repeat(1000), '\u0000', 'id', 'userId', 'user_id', 'isAdmin'),
  fc.string({ maxLength: 20, unit: 'binary' }),
);

type Path = (string | number)[];

function paths(v: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) paths(v[i] as Json, [...at, i], out);
  } else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k] as Json, [...at, k], out);
  return out;
}

function setAt(v: Json, path: Path, f: (parent: Json[] | { [k: string]: Json }, key: string | number) => void): Json {
  const copy = structuredClone(v) as Json;
  if (path.length === 0) return copy;
  let node = copy as Json[] | { [k: string]: Json };
  for (const p of path.slice(0, -1)) node = (node as Record<string | number, Json>)[p] as Json[] | { [k: string]: Json };
  f(node, path[path.length - 1] as string | number);
  return copy;
}

/**
 * One malformation of a well-formed value: a field replaced by a strange value (wrong type, extreme,
 * odd text), a field removed, or a strange key added (at the top or inside an object).
 */
export function malformed(value: Json): fc.Arbitrary<Json> {
  const all = paths(value);
  const objects = all.filter((p) => {
    let node: Json = value;
    for (const k of p) node = (node as Record<string | number, Json>)[k] as Json;
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const replace = fc
    .tuple(fc.constantFrom(...all), strangeValue)
    .map(([p, x]) => (p.length === 0 ? x : setAt(value, p, (parent, key) => ((parent as Record<string | number, Json>)[key] = x))));
  const remove =
    all.length > 1
      ? fc.constantFrom(...all.slice(1)).map((p) =>
          setAt(value, p, (parent, key) => {
            if (Array.isArray(parent)) parent.splice(key as number, 1);
            else delete parent[key as string];
          }),
        )
      : replace;
  const add = objects.length
    ? fc.tuple(fc.constantFrom(...objects), strangeKey, strangeValue).map(([p, k, x]) => {
        const copy = structuredClone(value) as Json;
        let node = copy as Record<string, Json>;
        for (const s of p) node = (node as Record<string | number, Json>)[s] as Record<string, Json>;
        Object.defineProperty(node, k, { value: x, enumerable: true, configurable: true, writable: true });
        return copy;
      })
    : replace;
  return fc.oneof(replace, replace, remove, add);
}

/**
 * A Map that holds at most `maxSize` entries: setting a new key beyond that drops the oldest one
 * (insertion order; a hit does not refresh, so `get` stays as cheap as a Map's). Every cache keyed by
 * something a client can vary (a zone, a parameter set, a statement shape) is one of these, so no
 * input can grow memory without bound.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly maxSize: number) {
    super();
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError('maxSize must be a positive integer');
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.maxSize) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

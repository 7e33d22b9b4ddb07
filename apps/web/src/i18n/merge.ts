/** A message catalogue: nested objects of strings. */
export type Catalogue = { [key: string]: string | Catalogue };

/**
 * One catalogue from several files (core + feature areas): objects merge key by key; a text defined twice
 * keeps the first (the i18n test fails on any such collision, so this never decides anything in practice).
 */
export function mergeCatalogues(parts: readonly Catalogue[]): Catalogue {
  const out: Catalogue = {};
  for (const part of parts) mergeInto(out, part);
  return out;
}

function mergeInto(target: Catalogue, source: Catalogue) {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    if (typeof v === 'string') {
      if (existing === undefined) target[k] = v;
    } else if (existing === undefined) {
      target[k] = mergeCatalogues([v]);
    } else if (typeof existing !== 'string') {
      mergeInto(existing, v);
    }
  }
}

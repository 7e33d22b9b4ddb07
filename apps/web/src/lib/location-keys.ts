/**
 * The query keys of locations and what hangs under them (a location's summary and tariffs): the locations
 * and tariffs features both read and invalidate them.
 */
export const locationKeys = {
  all: ['locations'] as const,
  location: (id: number) => ['locations', id] as const,
  summary: (id: number) => ['locations', id, 'summary'] as const,
  tariffs: (id: number) => ['locations', id, 'tariffs'] as const,
};

import { lazy, Suspense } from 'react';

const Notices = lazy(() => import('./export-notices').then((m) => ({ default: m.ExportNotices })));

/**
 * The app-wide export notices, loaded after the first render (a chunk of their own, not in the dashboard's
 * first JavaScript): the hub they listen to loads after the first paint too, and an export to watch exists
 * only once the user has started one.
 */
export function LazyExportNotices() {
  return (
    <Suspense fallback={null}>
      <Notices />
    </Suspense>
  );
}

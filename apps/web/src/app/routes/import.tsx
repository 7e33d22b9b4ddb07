import { ImportPage } from '@/features/imports';

/** /import: history import (issue 31). */
export default function ImportRoute() {
  return <ImportPage />;
}

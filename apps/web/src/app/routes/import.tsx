import { ImportPage } from '@/features/imports/components/import-page';

/** /import: history import (issue 31). */
export default function ImportRoute() {
  return <ImportPage />;
}

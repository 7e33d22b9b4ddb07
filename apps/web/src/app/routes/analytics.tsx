import { AnalyticsPage } from '@/features/analytics';

/** /analytics: comparative analysis. */
export default function AnalyticsRoute() {
  return <AnalyticsPage />;
}

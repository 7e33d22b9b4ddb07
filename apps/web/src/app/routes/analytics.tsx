import { AnalyticsPage } from '@/features/analytics/components/analytics-page';

/** /analytics: comparative analysis. */
export default function AnalyticsRoute() {
  return <AnalyticsPage />;
}

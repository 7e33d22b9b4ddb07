import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth-store';
import { locationsQueryOptions } from './api/get-locations';

/**
 * Where the menu's "Tariffs" goes: the tariffs balance of the user's first location that has an energy
 * tariff, else the location list (whose empty state leads to adding one). The list is asked for once the
 * browser is idle after the first paint, so the dashboard's first requests stay its own.
 */
export function useTariffsMenuTarget(): string {
  const { token } = useAuth();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!token) return;
    const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
    if (w.requestIdleCallback) {
      const h = w.requestIdleCallback(() => setIdle(true), { timeout: 3000 });
      return () => window.cancelIdleCallback?.(h);
    }
    const h = window.setTimeout(() => setIdle(true), 1000);
    return () => window.clearTimeout(h);
  }, [token]);
  const locations = useQuery({ ...locationsQueryOptions(), enabled: !!token && idle });
  const first = locations.data?.find((l) => l.tariff !== null);
  return first?.tariff ? paths.tariffStats(first.tariff.id) : paths.locations;
}

import type { HolidayCalendar, Holidays } from '@phasewatch/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** GET tariffs/holidays: a calendar's statutory holidays of a year, named in the interface language. */
export function useHolidays(calendar: HolidayCalendar | null, year: number, lang: string) {
  return useQuery({
    queryKey: ['tariffs', 'holidays', calendar, year, lang],
    queryFn: ({ signal }) =>
      apiClient.get<Holidays>(`${api.tariffHolidays}?${new URLSearchParams({ calendar: calendar ?? '', year: String(year), lang })}`, {
        signal,
      }),
    enabled: calendar !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

import type { Balance, Ledger, ProsumerSettings, ProsumerSettingsRequest, RceCsvResult, RceDays, RcemItem } from '@phasewatch/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api';

/** API paths of the prosumer feature (issue 33), relative to /api/. */
export const prosumerApi = {
  balance: (locationId: number) => `locations/${locationId}/balance`,
  settings: (locationId: number) => `locations/${locationId}/prosumer`,
  ledger: (locationId: number) => `locations/${locationId}/prosumer/ledger`,
  rcem: 'prices/rcem',
  rcemMonth: (month: string) => `prices/rcem/${month}`,
  rceDays: 'prices/rce/days',
  rceCsv: 'prices/rce/csv',
};

export const prosumerKeys = {
  all: (locationId: number) => ['prosumer', locationId] as const,
  settings: (locationId: number) => ['prosumer', locationId, 'settings'] as const,
  rcem: ['prosumer', 'rcem'] as const,
  rce: ['prosumer', 'rce'] as const,
};

/** GET locations/:id/balance?from&to&interval: local dates, `to` exclusive. */
export function useBalance(locationId: number, q: { from: string; to: string; interval: '1h' | '24h' }) {
  const params = new URLSearchParams(q);
  return useQuery({
    queryKey: [...prosumerKeys.all(locationId), 'balance', params.toString()],
    queryFn: ({ signal }) => apiClient.get<Balance>(`${prosumerApi.balance(locationId)}?${params}`, { signal, notFoundRedirect: false }),
    placeholderData: keepPreviousData,
  });
}

/** GET locations/:id/prosumer: the settlement settings, null when none were saved. */
export function useProsumerSettings(locationId: number) {
  return useQuery({
    queryKey: prosumerKeys.settings(locationId),
    queryFn: ({ signal }) => apiClient.get<ProsumerSettings | null>(prosumerApi.settings(locationId), { signal, notFoundRedirect: false }),
  });
}

export function useSaveProsumerSettings(locationId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProsumerSettingsRequest) =>
      apiClient.put<ProsumerSettings>(prosumerApi.settings(locationId), body, { notFoundRedirect: false }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: prosumerKeys.all(locationId) }),
  });
}

/** GET locations/:id/prosumer/ledger?from&to (months `YYYY-MM`, inclusive). */
export function useLedger(locationId: number, q: { from: string; to: string }) {
  const params = new URLSearchParams(q);
  return useQuery({
    queryKey: [...prosumerKeys.all(locationId), 'ledger', params.toString()],
    queryFn: ({ signal }) => apiClient.get<Ledger>(`${prosumerApi.ledger(locationId)}?${params}`, { signal, notFoundRedirect: false }),
    placeholderData: keepPreviousData,
  });
}

/** PUT prices/rcem/:month: the user's own RCEm of a month (PLN/MWh). */
export function useSaveRcem(locationId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { month: string; price: number }) => apiClient.put<RcemItem>(prosumerApi.rcemMonth(v.month), { price: v.price }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: prosumerKeys.all(locationId) });
      void qc.invalidateQueries({ queryKey: prosumerKeys.rcem });
    },
  });
}

/** GET prices/rce/days?from&to: priced quarter-hours per Polish business day (`to` exclusive), imported or uploaded. */
export function useRceDays(q: { from: string; to: string }) {
  const params = new URLSearchParams(q);
  return useQuery({
    queryKey: [...prosumerKeys.rce, params.toString()],
    queryFn: ({ signal }) => apiClient.get<RceDays>(`${prosumerApi.rceDays}?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST prices/rce/csv: the user's own RCE prices; the coverage and every ledger change with them. */
export function useUploadRceCsv() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => apiClient.post<RceCsvResult>(prosumerApi.rceCsv, { csv }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['prosumer'] }),
  });
}

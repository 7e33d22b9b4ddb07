import type { Location, LocationRequest } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { locationKeys } from '@/lib/location-keys';

/** POST locations (no id) or PUT locations/:id. */
export function saveLocation(id: number | null, body: LocationRequest): Promise<Location> {
  return id === null
    ? apiClient.post<Location>(api.locations, body)
    : apiClient.put<Location>(api.location(id), body, { notFoundRedirect: false });
}

export function useSaveLocation(id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: LocationRequest) => saveLocation(id, body),
    onSuccess: (loc) => {
      qc.setQueryData(locationKeys.location(loc.id), loc);
      // Names and tariffs show in the list, on devices and in the menu's target.
      void qc.invalidateQueries({ queryKey: locationKeys.all });
      void qc.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

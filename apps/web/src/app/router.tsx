import type { DeviceKind } from '@phasewatch/shared';
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths, routePatterns } from '@/config/paths';
import { prefetchDeviceRoute } from '@/features/devices';
import { withArea } from '@/i18n';
import { loadChunk } from '@/lib/lazy-chunk';
import { queryClient } from '@/lib/query-client';
import { AppLoading } from './layout/app-loading';
import { RootLayout } from './layout/root-layout';
import { RouteError } from './layout/route-error';

type Module = Record<string, ComponentType>;

/** A route whose screen is its own chunk, loaded with the 120 s limit; failures reach RouteError. */
function page(load: () => Promise<Module>, name = 'default'): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const m = await loadChunk(load);
      const Component = m[name];
      if (!Component) throw new Error(`route module has no export ${name}`);
      return { Component };
    },
  };
}

// The device page's own chunk is its heading; the rest of the page (and the texts of the areas its toolbar
// uses) is a chunk it loads itself (features/devices/detail/device-detail.tsx).
const deviceDetails = () => import('./routes/device-details') as unknown as Promise<Module>;
const locations = withArea(['tariffs', 'prosumer'], () => import('./routes/locations') as unknown as Promise<Module>);

/**
 * A device page. Its loader starts the page's first requests (`prefetchDeviceRoute`) and returns at once;
 * a search-param change (a new range) is left to the page's queries.
 */
function devicePage(name: string, kind: DeviceKind): Pick<RouteObject, 'lazy' | 'loader' | 'shouldRevalidate'> {
  return {
    ...page(deviceDetails, name),
    loader: ({ params, request }) => {
      prefetchDeviceRoute(queryClient, kind, Number(params.id), new URL(request.url).searchParams);
      return null;
    },
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
  };
}

/** The spec's route table (section 2), all under one root layout. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <AppLoading />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to={paths.dashboard} replace /> },
          { path: paths.dashboard, ...page(() => import('./routes/dashboard') as unknown as Promise<Module>) },
          { path: routePatterns.deviceDetails, ...devicePage('DeviceDetailsPage', 'generic') },
          { path: routePatterns.deviceEnergyDetails, ...devicePage('EnergyDeviceDetailsPage', 'energy') },
          { path: routePatterns.thermoDeviceDetails, ...devicePage('ThermoDeviceDetailsPage', 'thermostat') },
          { path: routePatterns.singlePhaseDeviceDetails, ...devicePage('SinglePhaseDeviceDetailsPage', 'singlePhase') },
          { path: routePatterns.solarDeviceDetails, ...devicePage('SolarDeviceDetailsPage', 'solar') },
          {
            path: routePatterns.editDevice,
            // Its push switch is the notifications area's, its location and tariff fields the tariffs area's, its
            // Home Assistant switch the integrations area's, its role select the prosumer area's.
            ...page(
              withArea(
                ['integrations', 'notifications', 'prosumer', 'tariffs'],
                () => import('./routes/edit-device') as unknown as Promise<Module>,
              ),
            ),
          },
          {
            path: routePatterns.deviceOverview,
            ...page(withArea('figures', () => import('./routes/device-overview') as unknown as Promise<Module>)),
          },
          {
            path: routePatterns.deviceQuality,
            ...page(
              withArea('quality', () => import('./routes/power-quality') as unknown as Promise<Module>),
              'PowerQualityPage',
            ),
          },
          { path: paths.profile, ...page(() => import('./routes/profile') as unknown as Promise<Module>) },
          {
            path: paths.notifications,
            ...page(withArea('notifications', () => import('./routes/notifications') as unknown as Promise<Module>)),
          },
          {
            path: paths.analytics,
            ...page(withArea(['figures', 'analytics'], () => import('./routes/analytics') as unknown as Promise<Module>)),
          },
          { path: paths.signOut, ...page(() => import('./routes/sign-out') as unknown as Promise<Module>) },
          { path: paths.import, ...page(withArea('integrations', () => import('./routes/import') as unknown as Promise<Module>)) },
          { path: paths.locations, ...page(locations, 'LocationListPage') },
          { path: routePatterns.locationView, ...page(locations, 'LocationViewPage') },
          { path: routePatterns.locationEdit, ...page(locations, 'LocationEditPage') },
          { path: routePatterns.locationTariffEdit, ...page(locations, 'LocationTariffEditPage') },
          {
            path: routePatterns.tariffStats,
            ...page(
              withArea(['figures', 'tariffs'], () => import('./routes/tariff-stats') as unknown as Promise<Module>),
              'TariffStatsPage',
            ),
          },
          { path: paths.signIn, ...page(() => import('./routes/sign-in') as unknown as Promise<Module>) },
          { path: paths.signInFox, ...page(() => import('./routes/sign-in') as unknown as Promise<Module>, 'SignInFoxPage') },
          { path: paths.register, ...page(() => import('./routes/register') as unknown as Promise<Module>) },
          { path: paths.forgotPassword, ...page(() => import('./routes/forgot-password') as unknown as Promise<Module>) },
          { path: paths.resetPassword, ...page(() => import('./routes/reset-password') as unknown as Promise<Module>) },
          { path: paths.notFound, ...page(() => import('./routes/not-found') as unknown as Promise<Module>) },
          { path: '*', element: <Navigate to={paths.notFound} replace /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

import { IconChartBar, IconDeviceAnalytics, IconFileImport, IconLogout, IconMapPin, IconReceipt, IconSettings } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { MenuEntry } from '@/components/ui/nav-menu';
import { paths } from '@/config/paths';

/** Route prefixes of the device screens (spec section 2). */
const DEVICE_ROUTE_PREFIXES = [
  '/device-details',
  '/device-energy-details',
  '/thermo-device-details',
  '/single-phase-device-details',
  '/solar-device-details',
  '/edit-device',
  '/device',
];

/**
 * The spec's menu (section 2): analytics, locations, tariffs, device readouts, settings, sign out.
 * `tariffsTo` is where "Tariffs" goes (`useTariffsMenuTarget`: a tariffs balance, or the location list).
 */
export function menuEntries(t: TFunction, tariffsTo: string = paths.locations): MenuEntry[] {
  return [
    {
      key: 'readouts',
      label: t('nav.deviceReadouts'),
      to: paths.dashboard,
      icon: <IconDeviceAnalytics size={18} />,
      // Every device screen belongs to this section.
      match: DEVICE_ROUTE_PREFIXES,
    },
    { key: 'analytics', label: t('nav.analytics'), to: paths.analytics, icon: <IconChartBar size={18} /> },
    {
      key: 'locations',
      label: t('nav.locations'),
      icon: <IconMapPin size={18} />,
      children: [
        { key: 'location-list', label: t('titles.locationList'), to: paths.locations, icon: <IconMapPin size={16} /> },
        { key: 'tariffs', label: t('nav.tariffs'), to: tariffsTo, icon: <IconReceipt size={16} />, match: ['/stats/tariff'] },
      ],
    },
    { key: 'import', label: t('nav.import'), to: paths.import, icon: <IconFileImport size={18} /> },
    { key: 'settings', label: t('nav.settings'), to: paths.profile, icon: <IconSettings size={18} /> },
    { key: 'sign-out', label: t('nav.signOut'), to: paths.signOut, icon: <IconLogout size={18} /> },
  ];
}

/** Every URL of the app: routes of the spec's table (section 2) and the API endpoints (section 7). */
export const paths = {
  root: '/',
  dashboard: '/dashboard',
  deviceDetails: (id: string | number) => `/device-details/${id}`,
  deviceEnergyDetails: (id: string | number) => `/device-energy-details/${id}`,
  thermoDeviceDetails: (id: string | number) => `/thermo-device-details/${id}`,
  singlePhaseDeviceDetails: (id: string | number) => `/single-phase-device-details/${id}`,
  solarDeviceDetails: (id: string | number) => `/solar-device-details/${id}`,
  editDevice: (id: string | number) => `/edit-device/${id}`,
  deviceOverview: (id: string | number) => `/device/overview/${id}`,
  profile: '/user/profile',
  analytics: '/analytics',
  signOut: '/sign-out',
  locations: '/locations',
  locationView: (id: string | number) => `/locations/view/${id}`,
  locationEdit: (id: string | number) => `/locations/edit/${id}`,
  locationTariffEdit: (locationId: string | number, tariffId: string | number) => `/locations/tariff-edit/${locationId}/${tariffId}`,
  tariffStats: (id: string | number) => `/stats/tariff/${id}`,
  /** The menu's "tariffs" entry: tariff statistics over all locations. */
  tariffs: '/stats/tariff/all',
  signIn: '/sign-in',
  signInFox: '/sign-in-fox',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** The notification centre (ours: the bell in the header leads here). */
  notifications: '/notifications',
  notFound: '/404',
} as const;

/** Route patterns for the router (same table, with params). */
export const routePatterns = {
  deviceDetails: '/device-details/:id',
  deviceEnergyDetails: '/device-energy-details/:id',
  thermoDeviceDetails: '/thermo-device-details/:id',
  singlePhaseDeviceDetails: '/single-phase-device-details/:id',
  solarDeviceDetails: '/solar-device-details/:id',
  editDevice: '/edit-device/:id',
  deviceOverview: '/device/overview/:id',
  locationView: '/locations/view/:id',
  locationEdit: '/locations/edit/:id',
  locationTariffEdit: '/locations/tariff-edit/:locationId/:tariffId',
  tariffStats: '/stats/tariff/:id',
} as const;

/** Routes reachable without a token; the token is not verified on them. */
export const PUBLIC_ROUTES: readonly string[] = [paths.signIn, paths.signInFox, paths.register, paths.forgotPassword, paths.resetPassword];

/** API endpoints, relative to the API base (`/api/`). */
export const api = {
  login: 'account/login',
  register: 'register',
  forgotPassword: 'forgot_password',
  resetPassword: 'reset_password',
  userInfo: 'account/userInfo',
  updateProfile: 'account/update',
  verifyToken: 'account/verifytoken',
  refreshToken: 'account/refreshtoken',
  logout: 'account/logout',
  devices: 'devices',
  device: (id: string | number) => `devices/${id}`,
  deviceEnergy: (id: string | number) => `devices/${id}/energy`,
  deviceReadings: (id: string | number) => `devices/${id}/readings`,
  deviceLimits: (id: string | number) => `devices/${id}/limits`,
  deviceMeterValue: (id: string | number) => `devices/${id}/meter-value`,
  deviceCollector: (id: string | number) => `devices/${id}/collector`,
  deviceCollectorTest: (id: string | number) => `devices/${id}/collector/test`,
  collectorTest: 'collectors/test',
  collectorDiscover: 'collectors/discover',
  deviceNotifications: (id: string | number) => `devices/${id}/notifications`,
  notifications: 'notifications',
  notificationsUnread: 'notifications/unread-count',
  notificationsReadAll: 'notifications/read-all',
  notificationRead: (id: string | number) => `notifications/${id}/read`,
  notificationAcknowledge: (id: string | number) => `notifications/${id}/acknowledge`,
  pushVapidKey: 'push/vapid-public-key',
  pushSubscriptions: 'push/subscriptions',
  exports: 'exports',
  export: (id: string) => `exports/${id}`,
  exportDownload: (id: string) => `exports/${id}/download`,
  heatmap: 'analytics/heatmap',
  consumption: 'analytics/consumption',
  sums: 'analytics/sums',
  comparisons: 'comparisons',
  comparison: (id: string | number) => `comparisons/${id}`,
} as const;

export const API_BASE_URL = '/api/';

/**
 * Notifications: the bell, the notification centre and browser push. The push switch and the push code are
 * chunks of their own: their loaders are exported.
 */
export { NotificationBell } from './components/notification-bell';
export { NotificationCenter } from './components/notification-center';

export const loadPushBrowserSwitch = () => import('./components/push-browser-switch');
export const loadPushBrowser = () => import('./push-browser');

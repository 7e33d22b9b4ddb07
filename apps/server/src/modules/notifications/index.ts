export { isBlockedAddress } from './channels/push-endpoint.js';
export {
  createMailChannel,
  createNotifications,
  type Notifications,
  type NotificationsBuildOptions,
  passwordResetMailer,
} from './notifications.module.js';
export type { QualityWeekReport, QualityWeekSource } from './notifications.quality.js';

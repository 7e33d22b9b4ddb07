export { type Analytics, createAnalytics } from './analytics.module.js';

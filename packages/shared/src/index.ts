export * from './account/account.schema.js';
export * from './constants.js';
export * from './geo/timezone.js';
export * from './validation/messages.js';

export * from './account/account.schema.js';
export * from './constants.js';
export * from './geo/timezone.js';
export * from './telemetry/device-types.js';
export * from './telemetry/parameters.js';
export * from './validation/messages.js';
export * from './realtime/hub-contract.js';

export * from './aggregate.js';
export * from './messages.js';
export * from './power-quality.js';
export * from './power-quality.schema.js';

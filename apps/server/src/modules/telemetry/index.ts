export { createTelemetry, type Telemetry } from './telemetry.module.js';

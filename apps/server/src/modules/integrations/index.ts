export type { HomeAssistantPublisher } from './home-assistant.js';
export { createHomeAssistant } from './integrations.module.js';

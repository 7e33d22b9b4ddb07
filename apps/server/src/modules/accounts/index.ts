export { AccountsRepository } from './accounts.repository.js';
export { accountsRoutes } from './accounts.routes.js';
export { AccountsService, type ResetMailer } from './accounts.service.js';

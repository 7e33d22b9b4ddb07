import path from 'node:path';

const root = import.meta.dirname;

/** Every project resolves the shared package to its sources, so tests need no build. */
export const sharedAlias = { '@phasewatch/shared': path.join(root, 'packages/shared/src/index.ts') };
export const globalServices = path.join(root, 'scripts/testing/global-services.ts');

import path from 'node:path';

const root = import.meta.dirname;

/** Every project resolves the shared package to its sources, so tests need no build. */
export const sharedAlias = {
  // Before the package's own name: an alias also matches what starts with its key and a slash.
  '@phasewatch/shared/holidays': path.join(root, 'packages/shared/src/tariffs/holidays.ts'),
  '@phasewatch/shared': path.join(root, 'packages/shared/src/index.ts'),
};
export const globalServices = path.join(root, 'scripts/testing/global-services.ts');

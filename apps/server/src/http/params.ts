import { idParamSchema } from '@phasewatch/shared';
import { z } from 'zod';

/** The `:id` path parameter of a route (`/devices/:id`, `/locations/:id`, ...): a storable positive id. */
export const idParams = z.strictObject({ id: idParamSchema });

/** The `:id` of `/devices/:id/...` routes, whichever module registers them. */
export const deviceIdParams = idParams;

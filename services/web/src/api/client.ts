import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The public HTTP interface, typed from /openapi.json (`pnpm --filter @rde/web run api`). Same
 * origin: the browser sends the `rde_session` cookie, which is the dashboard's only identity.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

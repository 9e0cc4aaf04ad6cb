import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardRoot } from '@rde/web';
import { DASHBOARD_PATH, errors } from '@rde/platform';
import type { GatewayDependencies } from '../../dependencies';
import { encodingFor, loadDashboard, type DashboardFile, type DashboardFiles } from './files';

/**
 * Scripts, styles and calls from this origin only; nothing inline, nothing framed (decision 0068).
 * Forms post to this origin, and a page may name the one other origin its form's answer redirects
 * to (the MCP consent: the client's redirect URI, decision 0078), as CSP checks redirects too.
 * Referrer off: sign-in pages carry single-use tokens in their URLs.
 */
function pageHeaders(formTargets: readonly string[]) {
  return {
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
      `object-src 'none'; base-uri 'none'; form-action ${["'self'", ...formTargets].join(' ')}; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
}
/** Asset names carry their content hash, so a year is safe. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The sign-in pages the API's redirects and emails name at the origin's root; the app has them under its path. */
const ROOT_PAGES = ['/auth/signin', '/auth/verify', '/auth/set-password', '/auth/cli/finalize'];

const hidden = { config: { public: true }, schema: { hide: true } } as const;

/** The dashboard's static files: the page at every dashboard path, and its hashed assets. */
export async function dashboardRoutes(app: FastifyInstance, _deps: GatewayDependencies): Promise<void> {
  const files = dashboardFiles();
  const page = (request: FastifyRequest, reply: FastifyReply) => sendDashboardPage(request, reply);

  app.get(DASHBOARD_PATH.slice(0, -1), hidden, async (_request, reply) => reply.redirect(DASHBOARD_PATH, 301));
  app.get(DASHBOARD_PATH, hidden, page);
  app.get(`${DASHBOARD_PATH}*`, hidden, page);
  app.get<{ Params: { name: string } }>(`${DASHBOARD_PATH}assets/:name`, hidden, async (request, reply) => {
    const asset = files.assets.get(request.params.name);
    if (!asset) throw errors.notFound();
    return send(request, reply.header('cache-control', ASSET_CACHE).header('x-content-type-options', 'nosniff'), asset);
  });
  for (const root of ROOT_PAGES) {
    app.get(root, hidden, async (request, reply) => {
      const query = request.url.slice(root.length);
      return reply.redirect(`${DASHBOARD_PATH}${root.slice(1)}${query}`, 302);
    });
  }
}

let loaded: DashboardFiles | undefined;

/** The build, read once per process. */
function dashboardFiles(): DashboardFiles {
  loaded ??= loadDashboard(dashboardRoot);
  return loaded;
}

/** The app's page (its router picks the view), allowed to post forms to `formTargets` besides this origin. */
export function sendDashboardPage(request: FastifyRequest, reply: FastifyReply, formTargets: readonly string[] = []) {
  return send(request, reply.headers(pageHeaders(formTargets)), dashboardFiles().index);
}

function send(request: FastifyRequest, reply: FastifyReply, file: DashboardFile) {
  const encoding = encodingFor(request.headers['accept-encoding']);
  void reply.type(file.type).header('vary', 'accept-encoding');
  if (encoding !== 'identity') void reply.header('content-encoding', encoding);
  return reply.send(file[encoding]);
}

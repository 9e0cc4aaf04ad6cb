import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { originOf } from './external';
import {
  anyBody,
  approveBody,
  approvedSchema,
  bearerErrors,
  claimErrors,
  claimPageQuery,
  claimParams,
  claimStartedSchema,
  pollSchema,
  publicErrors,
  redirectSchema,
} from './schemas';

const open = { public: true } as const;
/** The dashboard's sign-in page, on this origin. */
const SIGN_IN_PAGE = '/auth/signin';

type ClaimParams = { Params: { claim_id: string } };

/** The CLI claim flow: start, browser entry, approvals, poll. */
export async function claimRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;

  app.post(
    '/api/v2/auth/cli/start',
    { config: open, schema: { security: [], response: { 200: claimStartedSchema, ...publicErrors } } },
    async (request) => {
      const { claimId, expiresAtMs } = await signIn.startClaim({ clientIp: request.ip });
      const base = `${originOf(request)}/api/v2/auth/cli`;
      return {
        claim_id: claimId,
        approval_url: `${base}/claim/${claimId}`,
        poll_url: `${base}/poll/${claimId}`,
        expires_at: new Date(expiresAtMs).toISOString(),
      };
    },
  );

  app.get<ClaimParams & { Querystring: { ref?: string } }>(
    '/api/v2/auth/cli/claim/:claim_id',
    {
      config: open,
      schema: {
        security: [],
        params: claimParams,
        querystring: claimPageQuery,
        response: { 302: redirectSchema, ...claimErrors },
      },
    },
    async (request, reply) => {
      await signIn.getClaim({ claimId: request.params.claim_id });
      const target = new URLSearchParams({ cli_token: request.params.claim_id });
      if (request.query.ref) target.set('ref', request.query.ref);
      return reply.redirect(`${SIGN_IN_PAGE}?${target}`, 302);
    },
  );

  app.post<ClaimParams>(
    '/api/v2/auth/cli/claim/:claim_id',
    {
      config: open,
      schema: {
        security: [],
        params: claimParams,
        body: anyBody,
        response: { 200: approvedSchema, ...claimErrors },
      },
    },
    async (request) => {
      return approved(await signIn.approveClaimAnonymously({ claimId: request.params.claim_id }));
    },
  );

  app.post<{ Body: { claim_id: string; invite_code?: string } }>(
    '/api/v2/auth/cli/approve',
    { schema: { body: approveBody, response: { 200: approvedSchema, ...bearerErrors } } },
    async (request) => {
      const { claim_id: claimId, invite_code: inviteCode = '' } = request.body;
      return approved(await signIn.approveClaim({ claimId, inviteCode }, { caller: request.caller }));
    },
  );

  app.get<ClaimParams>(
    '/api/v2/auth/cli/poll/:claim_id',
    {
      config: open,
      schema: { security: [], params: claimParams, response: { 200: pollSchema, ...claimErrors } },
    },
    async (request) => {
      const { status, token, workspaceId } = await signIn.pollClaim({ claimId: request.params.claim_id });
      return { status, ...(token ? { token, workspace_id: workspaceId } : {}) };
    },
  );
}

function approved({ workspaceId }: { workspaceId: string }) {
  return { ok: true, status: 'approved', workspace_id: workspaceId };
}

import type { Handlers } from '@rde/platform';
import type { mcpOAuth } from '@rde/proto';
import type { AuthorizationServer } from '../app/oauth';

/** Proto ⇄ authorization server translation only; the rules live in app/oauth. */
export function oauthHandlers(server: AuthorizationServer): Handlers<typeof mcpOAuth.AuthorizationServiceService> {
  return {
    async registerClient(request) {
      await server.limits.register.take(request.from?.ip ?? '');
      const client = await server.registration.register(parsedJson(request.metadataJson));
      return { clientJson: json(client) };
    },

    async reviewAuthorization(request) {
      return server.authorization.review(request.parameters!, request.context!);
    },

    async decideAuthorization(request) {
      return { redirectUrl: await server.authorization.decide(request) };
    },

    async exchangeToken(request) {
      await server.limits.token.take(request.from?.ip ?? '');
      return { tokenJson: json(await server.tokens.exchange(request)) };
    },

    async revokeToken(request) {
      await server.tokens.revoke(request);
      return {};
    },

    async resolveAccessToken(request) {
      return { caller: await server.tokens.resolve(request.token, request.resource) };
    },
  };
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** The gateway parsed the body as JSON already; anything unreadable is metadata the rules refuse. */
function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

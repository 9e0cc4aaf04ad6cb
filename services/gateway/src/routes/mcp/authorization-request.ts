import type { FastifyRequest } from 'fastify';
import { mcpOAuth } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { SESSION_COOKIE } from '../../session-cookie';
import { issuerOf, resourceOf } from './index';
import { declared } from './oauth-forms';
import { authorizationQuery } from './oauth-schemas';

export type AuthorizationQuery = Partial<Record<keyof typeof authorizationQuery.properties, string>>;

export function parametersOf(query: AuthorizationQuery): mcpOAuth.AuthorizationParameters {
  return mcpOAuth.AuthorizationParameters.fromJSON(declared(query, authorizationQuery));
}

/** The authorization parameters the request carried, without the ones this server ignores: what the consent form posts back. */
export function recognized(query: AuthorizationQuery): Record<string, string> {
  const entries = Object.entries(declared(query, authorizationQuery));
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function contextOf(request: FastifyRequest, deps: GatewayDependencies): mcpOAuth.AuthorizationContext {
  return {
    issuer: issuerOf(deps),
    resource: resourceOf(deps),
    sessionToken: request.cookies?.[SESSION_COOKIE] ?? '',
  };
}

import { errors, type CallContext, type Handlers } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import type { Qualifier } from '../app/qualify';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** POST /qualify: proto ⇄ app only. */
export function qualifyHandlers(
  qualifier: Qualifier,
): Pick<Handlers<typeof waterfall.WaterfallServiceService>, 'qualify'> {
  return {
    async qualify(request, context) {
      requireWorkspace(context);
      const outcome = qualifier.qualify({
        jobSpec: request.jobSpec,
        candidates: parseJson(request.candidatesJson),
        minScore: request.minScoreJson.length ? parseJson(request.minScoreJson) : undefined,
        allowThinProfiles: request.allowThinProfiles,
      });
      return {
        candidatesJson: json(outcome.ranked.map((ranked) => ranked.row)),
        scoredOn: outcome.scoredOn,
        thinProfiles: outcome.thinProfiles,
      };
    },
  };
}

/** Scoring acts for a workspace like every metered route, even though it charges nothing. */
function requireWorkspace(context: CallContext): void {
  if (!context.caller?.workspaceId) throw errors.unauthenticated();
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw errors.badRequest({ detail: 'request field is not valid JSON' });
  }
}

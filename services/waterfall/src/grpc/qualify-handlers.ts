import { errors, type Handlers, workspaceCallerOf } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import type { Qualifier, QualifyInput } from '../app/qualify/qualify';
import type { QualifyRuns } from '../app/qualify/qualify-run';
import type { QualifyOutcome } from '../domain/qualify';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** POST /qualify: proto ⇄ app only. */
export function qualifyHandlers(
  qualifier: Qualifier,
  runs: QualifyRuns,
): Pick<Handlers<typeof waterfall.WaterfallServiceService>, 'qualify'> {
  return {
    async qualify(request, context) {
      const caller = workspaceCallerOf(context);
      const input: QualifyInput = {
        jobSpec: request.jobSpec,
        candidates: parseJson(request.candidatesJson),
        minScore: request.minScoreJson.length ? parseJson(request.minScoreJson) : undefined,
        allowThinProfiles: request.allowThinProfiles,
      };
      if (!request.runAsync) {
        const outcome = qualifier.qualify(input);
        return { ...counts(outcome), candidatesJson: json(outcome.ranked.map((ranked) => ranked.row)) };
      }
      const checked = qualifier.check(input);
      const started = await runs.start(checked, caller);
      return {
        ...counts(started.outcome),
        candidatesJson: Buffer.alloc(0),
        runId: started.runId,
        datasetId: started.datasetId,
        status: 'running',
        candidateCount: checked.rows.length,
      };
    },
  };
}

function counts(outcome: QualifyOutcome) {
  return {
    scoredOn: outcome.scoredOn,
    thinProfiles: outcome.thinProfiles,
    runId: '',
    datasetId: '',
    status: '',
    candidateCount: outcome.ranked.length,
  };
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw errors.badRequest({ detail: 'request field is not valid JSON' });
  }
}

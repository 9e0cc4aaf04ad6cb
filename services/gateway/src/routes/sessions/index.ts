import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { cents } from '../billing/caps';
import { parseJson } from '../billing/plan-state';
import {
  alertBody,
  feedbackBody,
  limitBody,
  outputBody,
  sessionResponses,
  sidParams,
  startBody,
  statusBody,
  updateBody,
} from './schemas';

type Sid = { Params: { sid: string } };

const parse = ({ sessionJson }: { sessionJson: Buffer }) => parseJson(sessionJson);

/** Agent sessions (spec "Sessions"), kept by billing beside the session caps they carry. */
export async function sessionRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { sessions } = deps.clients;
  const withBody = (body: object) => ({ schema: { body, response: sessionResponses } });
  const withSid = (body?: object) => ({
    schema: { params: sidParams, ...(body && { body }), response: sessionResponses },
  });

  app.post<{ Body: { steps: unknown[]; user_prompt: string } }>(
    '/session/start',
    withBody(startBody),
    async (request) =>
      parse(
        await sessions.startSession(
          { stepsJson: Buffer.from(JSON.stringify(request.body.steps)), userPrompt: request.body.user_prompt },
          { caller: request.caller },
        ),
      ),
  );

  app.post<{ Body: { session_id: string; index: number; status: string } }>(
    '/session/update',
    withBody(updateBody),
    async ({ body, caller }) =>
      parse(
        await sessions.updateSessionStep(
          { sessionId: body.session_id, index: body.index, status: body.status },
          { caller },
        ),
      ),
  );

  app.post<{ Body: { session_id: string; message: string; step_index?: number } }>(
    '/session/status',
    withBody(statusBody),
    async ({ body, caller }) =>
      parse(
        await sessions.setSessionStatus(
          { sessionId: body.session_id, message: body.message, stepIndex: body.step_index ?? -1 },
          { caller },
        ),
      ),
  );

  app.post<{ Body: { session_id: string; csv: string; label: string } }>(
    '/session/output',
    withBody(outputBody),
    async ({ body, caller }) =>
      parse(
        await sessions.addSessionOutput({ sessionId: body.session_id, csv: body.csv, label: body.label }, { caller }),
      ),
  );

  app.get<Sid>('/session/:sid', withSid(), async ({ params, caller }) =>
    parse(await sessions.getSession({ sessionId: params.sid }, { caller })),
  );

  app.post<Sid & { Body: { usd: number | null } }>(
    '/session/:sid/limit',
    withSid(limitBody),
    async ({ params, body, caller }) => {
      // null removes the cap (0 on the wire).
      const capCents = body.usd === null ? 0 : cents(body.usd);
      return parse(await sessions.setSessionLimit({ sessionId: params.sid, capCents }, { caller }));
    },
  );

  app.post<Sid & { Body: { message: string | null } }>(
    '/session/:sid/alert',
    withSid(alertBody),
    async ({ params, body, caller }) =>
      parse(await sessions.setSessionAlert({ sessionId: params.sid, message: body.message ?? '' }, { caller })),
  );

  app.post<Sid>('/session/:sid/end', withSid(), async ({ params, caller }) =>
    parse(await sessions.endSession({ sessionId: params.sid }, { caller })),
  );

  app.post<Sid & { Body: { message: string } }>(
    '/session/:sid/feedback',
    withSid(feedbackBody),
    async ({ params, body, caller, log }) => {
      const answer = parse(
        await sessions.addSessionFeedback({ sessionId: params.sid, message: body.message }, { caller }),
      );
      // Stored with the session above; also filed as workspace feedback and to the issue tracker,
      // best-effort: neither failure turns the stored feedback into an error.
      await deps.clients.signin
        .createFeedback(
          { message: `${body.message}\n\nsession ${params.sid}`, category: 'session', fileIssue: true },
          { caller },
        )
        .catch((error: unknown) => log.warn({ err: error, sessionId: params.sid }, 'filing session feedback failed'));
      return answer;
    },
  );
}

import { workspaceCallerOf } from '@rde/platform';
import type { Handlers } from '@rde/platform';
import type { billingSessions } from '@rde/proto';
import type { SessionView, Sessions } from '../app/sessions';
import { json } from './handlers';

const answer = async (view: Promise<SessionView>) => ({ sessionJson: json(await view) });

/** Proto ⇄ use case only; every answer is the session's public JSON. */
export function sessionHandlers(sessions: Sessions): Handlers<typeof billingSessions.SessionServiceService> {
  return {
    startSession: (request, context) => {
      const steps = JSON.parse(Buffer.from(request.stepsJson).toString('utf8') || '[]') as unknown[];
      return answer(sessions.start(workspaceCallerOf(context), steps, request.userPrompt));
    },
    updateSessionStep: (request, context) =>
      answer(sessions.updateStep(workspaceCallerOf(context), request.sessionId, request.index, request.status)),
    setSessionStatus: (request, context) =>
      answer(sessions.setStatus(workspaceCallerOf(context), request.sessionId, request.message, request.stepIndex)),
    addSessionOutput: (request, context) =>
      answer(sessions.addOutput(workspaceCallerOf(context), request.sessionId, request.csv, request.label)),
    getSession: (request, context) => answer(sessions.get(workspaceCallerOf(context), request.sessionId)),
    setSessionLimit: (request, context) =>
      answer(sessions.setLimit(workspaceCallerOf(context), request.sessionId, request.capCents)),
    setSessionAlert: (request, context) =>
      answer(sessions.setAlert(workspaceCallerOf(context), request.sessionId, request.message)),
    endSession: (request, context) => answer(sessions.end(workspaceCallerOf(context), request.sessionId)),
    addSessionFeedback: (request, context) =>
      answer(sessions.addFeedback(workspaceCallerOf(context), request.sessionId, request.message)),
  };
}

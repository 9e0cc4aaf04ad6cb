import type { OperationGroup } from '../operation-docs';

/**
 * A session id as POST /session/start answers it. The examples name one so they are valid; a
 * client (and the examples test) sends the id its own start returned.
 */
const SESSION_ID = 'ses_0123456789abcdef0123456789abcdef';

export const sessions: OperationGroup = {
  tag: 'Sessions',
  about:
    "An agent's working session: its plan of steps, progress, outputs and spend cap, shown live to the user. " +
    'Every route but start names the `ses_` id that start returned.',
  operations: {
    'POST /session/start': {
      summary: 'Start a session',
      spec: 'Sessions, POST /session/start',
      does: 'Opens a session with its planned `steps` and the `user_prompt`; answers the `ses_` id.',
      body: { steps: ['Search Berlin engineers', 'Find their work emails'], user_prompt: 'Find 20 Go engineers' },
    },
    'POST /session/update': {
      summary: "Update a step's status",
      spec: 'Sessions, POST /session/update',
      does: 'Marks one planned step pending, running, completed, error or skipped.',
      body: { session_id: SESSION_ID, index: 0, status: 'running' },
    },
    'POST /session/status': {
      summary: 'Post a status message',
      spec: 'Sessions, POST /session/status',
      does: "Shows a progress message to the session's viewer, optionally against one step.",
      body: { session_id: SESSION_ID, message: 'Searching three databases', step_index: 0 },
    },
    'POST /session/output': {
      summary: 'Record an output file',
      spec: 'Sessions, POST /session/output',
      does: 'Records a CSV the agent wrote, by path and label, among the session outputs.',
      body: { session_id: SESSION_ID, csv: 'out/engineers.csv', label: 'Berlin Go engineers' },
    },
    'GET /session/{sid}': {
      summary: 'Read a session',
      spec: 'Sessions, GET /session/{sid}',
      does: "The session's plan, step statuses, messages, outputs, cap and spend.",
    },
    'POST /session/{sid}/limit': {
      summary: "Set a session's spend cap",
      spec: 'Sessions, POST /session/{sid}/limit',
      does:
        "Overrides the default cap for this session, in USD; `null` removes it. Below an owner's default, a member " +
        'may only lower it.',
      body: { usd: 2.5 },
    },
    'POST /session/{sid}/alert': {
      summary: 'Raise or clear an alert',
      spec: 'Sessions, POST /session/{sid}/alert',
      does: 'Shows a banner asking the user to look at the terminal; `null` or empty clears it.',
      body: { message: 'Please confirm the 40-credit enrichment in the terminal' },
    },
    'POST /session/{sid}/end': {
      summary: 'End a session',
      spec: 'Sessions, POST /session/{sid}/end',
      does: 'Closes the session; ending it again changes nothing.',
    },
    'POST /session/{sid}/feedback': {
      summary: 'Send feedback on a session',
      spec: 'Sessions, POST /session/{sid}/feedback',
      does: 'Stores feedback about the session and files it as an issue, best-effort.',
      body: { message: 'The email step found nobody at Acme' },
    },
  },
};

import { errors, type CallContext, type Caller } from '@rde/platform';

/** The gateway's resolved caller; billing acts only for one. */
export function callerOf(context: CallContext): Caller {
  const caller = context.caller;
  if (!caller?.workspaceId) throw errors.unauthenticated();
  return caller;
}

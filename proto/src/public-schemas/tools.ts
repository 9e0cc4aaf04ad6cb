import { jsonObject, pathParam } from './common';

/** `POST /tools/{tool}/{method}`: the path. */
export const methodParams = {
  type: 'object',
  properties: {
    tool: pathParam(),
    method: pathParam(),
  },
  required: ['tool', 'method'],
} as const;

/** `POST /tools/{tool}/{method}`: the body. */
export const callBody = {
  type: 'object',
  properties: {
    payload: jsonObject("the method's parameters by name"),
    args: { type: 'array', description: 'positional parameters, in the order of the contract inputs' },
    kwargs: jsonObject('parameters by name'),
    dry_run: { type: 'boolean', description: 'price and resolve the call without charging or calling the provider' },
    session_id: { type: 'string', maxLength: 200, description: 'the `ses_` session the spend accrues to' },
  },
  additionalProperties: false,
} as const;

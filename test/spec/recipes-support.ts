import { api, type ApiResponse } from '../e2e/api';
import { waitUntil, type RunningRde } from '../e2e/harness';

/** A recipe card's request, as `GET /api/v2/recipes` shows it. */
export interface RecipeRequest {
  method: string;
  path: string;
  body?: object;
  explains: string;
  auth: 'bearer' | 'none';
  saves_as?: string;
  repeat_until?: { field: string; in: string[] };
}

/** How long a repeated request may take to reach its end (a workflow run on a loaded machine). */
const REPEAT_TIMEOUT_MS = 120_000;

/**
 * A card's requests sent as a reader follows them: `{<name>.<field>}` in a path filled from the answer
 * saved under that name, no key where the card says none, a request with `repeat_until` sent again
 * until its field holds one of the values. Answers each request's filled path and last answer.
 */
export async function followRecipe(rde: RunningRde, requests: RecipeRequest[]) {
  const saved = new Map<string, Record<string, unknown>>();
  const answers: { path: string; answer: ApiResponse }[] = [];
  for (const request of requests) {
    const path = request.path.replace(/\{(\w+)\.(\w+)\}/g, (placeholder, name: string, field: string) => {
      const value = saved.get(name)?.[field];
      if (typeof value !== 'string') throw new Error(`${request.path}: no ${placeholder} in the answers so far`);
      return value;
    });
    const send = () =>
      api(rde, request.method, path, { key: request.auth === 'none' ? null : undefined, body: request.body });
    let answer = await send();
    const until = request.repeat_until;
    if (until) {
      await waitUntil(
        async () => until.in.includes((answer = await send()).body?.[until.field]),
        REPEAT_TIMEOUT_MS,
        250,
      );
    }
    if (request.saves_as) saved.set(request.saves_as, answer.body);
    answers.push({ path, answer });
  }
  return answers;
}

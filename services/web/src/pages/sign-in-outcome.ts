const HOME = '/app/';

/** What a verify, login or set-password answer asks the page to do next. */
export interface SignedIn {
  kind?: string;
  next_url?: string;
}

export type Outcome = { done: 'cli' } | { done: 'set_password' } | { goTo: string };

export function outcomeOf(answer: SignedIn, next: string | null): Outcome {
  if (answer.kind === 'cli') return { done: 'cli' };
  if (answer.kind === 'set_password') return { done: 'set_password' };
  return { goTo: sameOriginPath(answer.next_url ?? next) ?? HOME };
}

/** Only a path on this origin: `next` comes from a link anyone can craft (no open redirect). */
function sameOriginPath(target: string | null | undefined): string | undefined {
  if (!target) return undefined;
  const url = new URL(target, window.location.origin);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}` : undefined;
}

import type { Filter } from '@rde/platform';
import { cappedScopes, centsToMillicredits, dayKey, windowDays, type CapFields, type CapTags } from '../domain/caps';

/** What a Reserve adds to its filter so the cap check it made on a read still holds when it writes. */
export interface CapGuard {
  filter: Filter;
}

/**
 * The cap check of a Reserve of `amount`, folded into its one guarded write (decision 0020): each
 * capped scope's caps must be as read, every other day's counter of its window no higher than read,
 * and today's counter at most what leaves room for `amount`. Concurrent Reserves all add to today's
 * counter, so they do not fail each other's guard unless together they would cross the cap: a
 * capped Reserve retries no more than an uncapped one until the cap is near. An uncapped scope's
 * guard is that it is still uncapped, so a cap set concurrently wins; a session's, that it is still open.
 */
export function capGuard(account: CapFields, tags: CapTags, amount: number, now: number): CapGuard {
  const capped = cappedScopes(account, tags);
  const absent = { $exists: false };
  const filter: Filter = {};
  if (capped.workspace) {
    filter.workspace_cap = account.workspace_cap;
    Object.assign(filter, windowGuard('spend', account.spend, account.workspace_cap! - amount, now));
  } else filter.workspace_cap = absent;
  if (tags.member) {
    const path = `member_caps.${tags.member}`;
    if (capped.member) {
      const cap = account.member_caps![tags.member]!.cap_cents;
      filter[`${path}.cap_cents`] = cap;
      filter.plan_id = account.plan_id;
      const room = centsToMillicredits(cap, account.plan_id) - amount;
      Object.assign(filter, windowGuard(`member_spend.${tags.member}`, account.member_spend?.[tags.member], room, now));
    } else filter[path] = absent;
  }
  if (tags.session) {
    const path = `sessions.${tags.session}`;
    // Still open as read: a Reserve starting from an older copy must not count against a session ended since.
    filter[`${path}.ended`] = false;
    if (capped.session) {
      const cap = account.sessions![tags.session]!.cap_cents!;
      filter[`${path}.cap_cents`] = cap;
      filter.plan_id = account.plan_id;
      filter[`${path}.spent`] = { $lte: centsToMillicredits(cap, account.plan_id) - amount };
    } else filter[`${path}.cap_cents`] = absent;
  }
  return { filter };
}

/**
 * A rolling-window counter's guard: today's day at most `room` less the other days' spend as read;
 * each other day of the window (and tomorrow, for a replica whose clock runs ahead) no higher than
 * read, or still absent.
 */
function windowGuard(path: string, days: Record<string, number> | undefined, room: number, now: number): Filter {
  const today = dayKey(now);
  const others = windowDays(now).filter((day) => day !== today);
  const othersSpend = others.reduce((sum, day) => sum + (days?.[day] ?? 0), 0);
  const filter: Filter = {};
  for (const day of others) {
    const read = days?.[day];
    filter[`${path}.${day}`] = read === undefined ? { $exists: false } : { $lte: read };
  }
  filter[`${path}.${today}`] = days?.[today] === undefined ? { $exists: false } : { $lte: room - othersSpend };
  return filter;
}

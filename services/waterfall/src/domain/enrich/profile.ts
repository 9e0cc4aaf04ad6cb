/** The normalised profile record of `linkedin_profile` (spec "Search/enrichment records"). */
export interface Profile {
  readonly full_name?: string;
  readonly headline: string | null;
  readonly current_title: string | null;
  readonly current_company: string | null;
  /** Newest role first. */
  readonly experience: readonly Experience[];
  readonly skills?: readonly string[];
  readonly certifications?: readonly string[];
  readonly education?: readonly Education[];
}

export interface Experience {
  readonly company: string;
  readonly title: string;
  /** `YYYY-MM`, or null when the provider gave no date. */
  readonly start: string | null;
  readonly end: string | null;
  readonly is_current: boolean;
  readonly duration_months?: number;
}

export interface Education {
  readonly school: string;
  readonly degree: string | null;
  readonly start_year: number | null;
  readonly end_year: number | null;
}

/** How a provider's answer becomes a profile: each vendor has its own shape. */
export type ProfileShape = 'profilely' | 'litepro';

type Json = Record<string, unknown>;

/**
 * The profile in a provider's answer, normalised, or undefined when it holds none. `asOf` (a
 * `YYYY-MM` month) ends a current role for `duration_months`.
 */
export function profileOf(shape: ProfileShape, answer: Json, asOf: string): Profile | undefined {
  return shape === 'profilely' ? fromProfilely(answer, asOf) : fromLitePro(answer, asOf);
}

function fromProfilely(answer: Json, asOf: string): Profile | undefined {
  if (typeof answer.profile_url !== 'string') return undefined;
  const experience = list(answer.positions).map((position) =>
    experienceOf(
      text(position.company),
      text(position.title),
      month(position.starts_at),
      month(position.ends_at),
      asOf,
    ),
  );
  return assemble(text(answer.full_name), text(answer.headline) || null, experience, {
    skills: strings(answer.skills),
    certifications: list(answer.certifications).map((c) => text(c.name)),
    education: list(answer.education).map((e) => ({
      school: text(e.school),
      degree: text(e.degree_name) || null,
      start_year: year(e.starts_at),
      end_year: year(e.ends_at),
    })),
  });
}

function fromLitePro(answer: Json, asOf: string): Profile | undefined {
  const profile = answer.profile;
  if (!isJson(profile)) return undefined;
  const experience = list(profile.experience).map((job) => {
    const period = isJson(job.period) ? job.period : {};
    return experienceOf(text(job.company), text(job.title), dateText(period.from), dateText(period.to), asOf);
  });
  return assemble(text(profile.name), text(profile.headline) || null, experience, { skills: strings(profile.skills) });
}

function assemble(
  fullName: string,
  headline: string | null,
  experience: Experience[],
  more: Pick<Profile, 'skills' | 'certifications' | 'education'>,
): Profile {
  const ordered = newestFirst(experience);
  const current = ordered.find((job) => job.is_current) ?? ordered[0];
  return {
    ...(fullName && { full_name: fullName }),
    headline,
    current_title: current?.title || null,
    current_company: current?.company || null,
    experience: ordered,
    ...more,
  };
}

/** Current roles first, then by start month, newest first; undated roles keep their order at the end. */
export function newestFirst(experience: readonly Experience[]): Experience[] {
  const rank = (job: Experience) => `${job.is_current ? 1 : 0}${job.start ?? '0000-00'}`;
  return experience
    .map((job, index) => ({ job, index }))
    .sort((a, b) => rank(b.job).localeCompare(rank(a.job)) || a.index - b.index)
    .map(({ job }) => job);
}

function experienceOf(
  company: string,
  title: string,
  start: string | null,
  end: string | null,
  asOf: string,
): Experience {
  const isCurrent = end === null;
  const duration = start === null ? undefined : monthsBetween(start, end ?? asOf);
  return {
    company,
    title,
    start,
    end,
    is_current: isCurrent,
    ...(duration !== undefined && { duration_months: duration }),
  };
}

/** Whole months from one `YYYY-MM` to another, counting both ends' months (Jan to Mar is 3). */
export function monthsBetween(start: string, end: string): number {
  const index = (value: string) => Number(value.slice(0, 4)) * 12 + Number(value.slice(5, 7)) - 1;
  return Math.max(1, index(end) - index(start) + 1);
}

function month(value: unknown): string | null {
  if (!isJson(value) || typeof value.year !== 'number') return null;
  const m = typeof value.month === 'number' ? value.month : 1;
  return `${String(value.year).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
}

function year(value: unknown): number | null {
  return isJson(value) && typeof value.year === 'number' ? value.year : null;
}

function dateText(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}/.test(value) ? value.slice(0, 7) : null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isJson) : [];
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

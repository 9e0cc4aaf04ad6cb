import type { Basis, CandidateProfile, Role } from './candidate';
import { DEFAULT_MIN_YEARS, type JobSpec } from './job-spec';
import { keywords, MID_LEVEL, seniorityOf } from './text';

/** The qualify cell the spec defines. */
export interface QualifyCell {
  score: number;
  basis: Basis;
  summary: string;
  strengths: string[];
  gaps: string[];
}

/** Points per criterion; they add up to 10 (decision 0030 explains each). */
export const RUBRIC = { title: 3, seniority: 1, years: 2, skills: 2.5, recency: 1, employer: 0.5 } as const;
type Criterion = keyof typeof RUBRIC;

interface Finding {
  criterion: Criterion;
  /** 0..1 share of the criterion's points. */
  share: number;
  /** Says what earned or missed the points, for summary, strengths and gaps. */
  note: string;
}

/** A role still held or left within this many months counts as recent. */
const RECENT_MONTHS = 24;

export function scoreCandidate(spec: JobSpec, candidate: CandidateProfile, nowMonth: number): QualifyCell {
  const relevant = candidate.roles.filter((role) => overlap(spec.titleWords, keywords(role.title)) > 0);
  const findings: Finding[] = [
    titleFit(spec, candidate),
    seniorityFit(spec, candidate),
    ...(candidate.basis === 'title_only' ? [] : [relevantYears(spec, relevant, nowMonth), recency(relevant, nowMonth)]),
    skillOverlap(spec, candidate),
    employerSignal(spec, candidate),
  ];
  const points = findings.reduce((sum, finding) => sum + finding.share * RUBRIC[finding.criterion], 0);
  const score = Math.round(Math.min(10, points) * 10) / 10;
  const strengths = findings.filter((finding) => finding.share >= 0.6).map((finding) => finding.note);
  const gaps = findings.filter((finding) => finding.share < 0.4).map((finding) => finding.note);
  if (candidate.basis === 'title_only') gaps.push('no work history: scored on title, employer and location only');
  return { score, basis: candidate.basis, summary: summarize(score, candidate, findings), strengths, gaps };
}

function titleFit(spec: JobSpec, candidate: CandidateProfile): Finding {
  const best = Math.max(
    overlap(spec.titleWords, keywords(candidate.title)),
    // A past role with the asked title counts for most of the points.
    ...candidate.roles.map((role) => 0.75 * overlap(spec.titleWords, keywords(role.title))),
  );
  const share = spec.titleWords.length ? best : 0.5;
  const shown = candidate.title || 'no title';
  return { criterion: 'title', share, note: `title fit ${pct(share)} (${shown})` };
}

function seniorityFit(spec: JobSpec, candidate: CandidateProfile): Finding {
  const level = seniorityOf(candidate.title) ?? MID_LEVEL;
  const asked = spec.level ?? MID_LEVEL;
  const share = Math.max(0, 1 - Math.abs(level - asked) / 2);
  return { criterion: 'seniority', share, note: share >= 0.6 ? 'seniority matches' : 'seniority off the asked level' };
}

function relevantYears(spec: JobSpec, relevant: readonly Role[], nowMonth: number): Finding {
  const months = relevant.reduce((sum, role) => sum + durationMonths(role, nowMonth), 0);
  const years = Math.round(months / 1.2) / 10;
  const asked = spec.minYears ?? DEFAULT_MIN_YEARS;
  const share = Math.min(1, years / asked);
  return { criterion: 'years', share, note: `${years} relevant years of ${asked} asked` };
}

function recency(relevant: readonly Role[], nowMonth: number): Finding {
  const latestEnd = Math.max(-Infinity, ...relevant.map((role) => role.endMonth ?? nowMonth));
  const gap = nowMonth - latestEnd;
  const share = gap <= 0 ? 1 : gap <= RECENT_MONTHS ? 0.5 : 0;
  const note = !relevant.length
    ? 'no role matching the title'
    : gap <= 0
      ? 'in a matching role now'
      : `last matching role ended ${Math.round(gap / 12)} years ago`;
  return { criterion: 'recency', share, note };
}

function skillOverlap(spec: JobSpec, candidate: CandidateProfile): Finding {
  const asked = spec.keywords.filter((word) => !spec.titleWords.includes(word));
  const held = new Set(
    keywords(
      [
        candidate.title,
        ...candidate.skills,
        ...candidate.roles.map((role) => `${role.title} ${role.text}`),
        candidate.text,
      ].join(' '),
    ),
  );
  const matched = asked.filter((word) => held.has(word));
  const missing = asked.filter((word) => !held.has(word));
  const share = asked.length ? matched.length / asked.length : 0.5;
  const note =
    share >= 0.6
      ? `skills matched: ${matched.slice(0, 8).join(', ')}`
      : `skills missing: ${missing.slice(0, 8).join(', ') || 'none named'}`;
  return { criterion: 'skills', share, note };
}

/** An employer the spec names (a competitor, an industry word) found in the candidate's employers. */
function employerSignal(spec: JobSpec, candidate: CandidateProfile): Finding {
  const employers = keywords([candidate.company, ...candidate.roles.map((role) => role.company)].join(' '));
  const named = employers.filter((word) => spec.keywords.includes(word));
  const share = named.length ? 1 : candidate.roles.length > 1 ? 0.5 : 0.3;
  const note = named.length ? `employer signal: ${named.join(', ')}` : 'no employer the spec names';
  return { criterion: 'employer', share, note };
}

function summarize(score: number, candidate: CandidateProfile, findings: readonly Finding[]): string {
  const parts = findings.map(
    (finding) => `${finding.note} (+${(finding.share * RUBRIC[finding.criterion]).toFixed(1)})`,
  );
  return `${score}/10 on ${candidate.basis.replace('_', ' ')}: ${parts.join('; ')}`;
}

/** Share of `wanted` words found in `have`. */
function overlap(wanted: readonly string[], have: readonly string[]): number {
  if (!wanted.length) return 0;
  const present = new Set(have);
  return wanted.filter((word) => present.has(word)).length / wanted.length;
}

function durationMonths(role: Role, nowMonth: number): number {
  if (role.startMonth === null) return 0;
  return Math.max(0, (role.endMonth ?? nowMonth) - role.startMonth + 1);
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}

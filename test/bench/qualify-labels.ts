/**
 * A labelled set for /qualify built from the sandbox's synthetic universe. The universe knows each
 * person's role, level, skills and years; the scorer sees only the profile rendered from them (titles,
 * dated history, skills, certifications, education). True relevance is computed from the universe's
 * attributes, so the labels never come from the scorer's own reading.
 */
import { AS_OF_MONTH, type Person } from '../../services/sandbox/src/domain/people';
import { DEFAULT_UNIVERSE, Universe } from '../../services/sandbox/src/domain/universe';
import { ROLES, SENIORITIES, type Role } from '../../services/sandbox/src/domain/vocabulary';

export interface LabelledCase {
  readonly jobSpec: string;
  readonly candidates: Record<string, unknown>[];
  /** True relevance of each candidate, in candidate order (higher is more relevant). */
  readonly relevance: number[];
}

const ASKED_LEVEL = SENIORITIES.indexOf('senior');
const ASKED_YEARS = 5;
const ASKED_SKILLS = 4;

/** One job spec for each of `roles` roles spread over the role list, each with `perSpec` candidates. */
export function buildLabelledSet(roles = 8, perSpec = 120): { cases: LabelledCase[]; asOfMonth: number } {
  const universe = new Universe({ seed: 'qualify-bench', ...DEFAULT_UNIVERSE });
  const stride = Math.max(1, Math.floor(ROLES.length / roles));
  const picked = ROLES.filter((_, index) => index % stride === 0).slice(0, roles);
  const cases = picked.map((role) => buildCase(universe, role, perSpec));
  return { cases, asOfMonth: AS_OF_MONTH };
}

function buildCase(universe: Universe, role: Role, perSpec: number): LabelledCase {
  const skills = role.skills.slice(0, ASKED_SKILLS);
  const jobSpec = `Senior ${role.title}, ${ASKED_YEARS}+ years, ${skills.join(', ')}`;
  // A third in the role, a third elsewhere in its department, a third anyone: a realistic shortlist.
  const buckets = { role: [] as number[], department: [] as number[], other: [] as number[] };
  const quota = Math.ceil(perSpec / 3);
  for (let id = 0; id < universe.people && Object.values(buckets).some((ids) => ids.length < quota); id++) {
    const other = universe.roleOf(id);
    const bucket = other === role ? 'role' : other.department === role.department ? 'department' : 'other';
    if (buckets[bucket].length < quota) buckets[bucket].push(id);
  }
  const ids = [...buckets.role, ...buckets.department, ...buckets.other].slice(0, perSpec);
  const people = ids.map((id) => universe.person(id));
  return {
    jobSpec,
    candidates: people.map(candidateRow),
    relevance: people.map((person, n) => truth(universe, ids[n]!, person, role, skills)),
  };
}

/** Role 4, department 1, level closeness 2, asked skills held 2, years toward the ask 1: out of 10. */
function truth(universe: Universe, id: number, person: Person, role: Role, skills: readonly string[]): number {
  const theirRole = universe.roleOf(id);
  const level = SENIORITIES.indexOf(universe.seniorityOf(id));
  const held = skills.filter((skill) => person.skills.includes(skill)).length;
  return (
    (theirRole === role ? 4 : 0) +
    (theirRole.department === role.department ? 1 : 0) +
    2 * (1 - Math.abs(level - ASKED_LEVEL) / (SENIORITIES.length - 1)) +
    (2 * held) / skills.length +
    Math.min(1, person.yearsExperience / ASKED_YEARS)
  );
}

/** The person as profile enrichment returns them (spec "Normalized profile"). */
function candidateRow(person: Person): Record<string, unknown> {
  return {
    full_name: person.fullName,
    title: person.title,
    company: person.company.name,
    profile: {
      headline: person.headline,
      current_title: person.title,
      current_company: person.company.name,
      experience: person.experience.map((job) => ({
        company: job.company,
        title: job.title,
        start: job.start,
        end: job.end,
        is_current: job.isCurrent,
      })),
      skills: person.skills,
      certifications: person.certifications,
      education: person.education.map((school) => `${school.degree}, ${school.school}`),
    },
  };
}

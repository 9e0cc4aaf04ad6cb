import { qualifyCandidates, RUBRIC } from '../src/domain/qualify';
import { monthOf } from '../src/domain/qualify/candidate';
import { parseJobSpec } from '../src/domain/qualify/job-spec';

const NOW = monthOf('2026-06')!;
const SPEC = 'Senior Backend Engineer, 5+ years, TypeScript, Kafka, PostgreSQL';

const role = (title: string, company: string, start: string, end: string | null, description = '') => ({
  title,
  company,
  start,
  end,
  is_current: end === null,
  description,
});

const seniorBackend = {
  full_name: 'Ada Strong',
  profile: {
    headline: 'Senior Backend Engineer at Streamly',
    skills: ['TypeScript', 'Kafka', 'PostgreSQL'],
    experience: [
      role('Senior Backend Engineer', 'Streamly', '2021-01', null, 'event pipelines on Kafka'),
      role('Backend Engineer', 'Shopco', '2017-03', '2020-12'),
    ],
  },
};
const designer = {
  full_name: 'Dan Draw',
  experience: [role('Product Designer', 'Pixel', '2019-01', null)],
  skills: ['Figma'],
};
const titleOnly = { full_name: 'Tia Title', title: 'Backend Engineer', company: 'Acme' };

describe('qualify rubric', () => {
  test('the points of the rubric add up to 10', () => {
    expect(Object.values(RUBRIC).reduce((a, b) => a + b, 0)).toBe(10);
  });

  test('the job spec yields its role words, level and years asked', () => {
    expect(parseJobSpec(SPEC)).toMatchObject({ titleWords: ['backend', 'engineer'], level: 3, minYears: 5 });
  });

  test('a matching history outranks an unrelated one, and the cell names why', () => {
    const { ranked } = qualifyCandidates(SPEC, [designer, seniorBackend], NOW);
    const [first, second] = ranked.map((entry) => entry.row);
    expect(first!.full_name).toBe('Ada Strong');
    expect(first!.qualify.score).toBeGreaterThanOrEqual(8);
    expect(first!.qualify.basis).toBe('work_history');
    expect(first!.qualify.strengths.join(' ')).toMatch(/skills matched: typescript, kafka, postgresql/);
    expect(second!.qualify.score).toBeLessThan(4);
    expect(second!.qualify.gaps.join(' ')).toMatch(/skills missing: typescript/);
    expect(first!.qualify.summary).toMatch(/^\d+(\.\d)?\/10 on work history: title fit 100%/);
  });

  test('relevant years count only roles whose title matches the spec', () => {
    const { ranked } = qualifyCandidates(SPEC, [seniorBackend, designer], NOW);
    expect(ranked[0]!.row.qualify.summary).toMatch(/9.3 relevant years of 5 asked/);
    expect(ranked[1]!.row.qualify.summary).toMatch(/0 relevant years of 5 asked/);
  });

  test('history is read from experience, work_experience or job_history on the row', () => {
    for (const key of ['experience', 'work_experience', 'job_history']) {
      const { ranked } = qualifyCandidates(SPEC, [{ [key]: seniorBackend.profile.experience }], NOW);
      expect(ranked[0]!.row.qualify.basis).toBe('work_history');
    }
  });

  test('without history, a resume pasted in profile.about is read in full', () => {
    const about = [
      'Backend Engineer with a decade of TypeScript and Kafka.',
      'Senior Backend Engineer, Streamly  2019 - Present',
      'Backend Engineer, Shopco  2014 - 2018',
      'Built PostgreSQL replication tooling and on-call runbooks for payment systems at scale.',
    ].join('\n');
    const { ranked, scoredOn } = qualifyCandidates(SPEC, [{ profile: { about } }], NOW);
    expect(scoredOn).toEqual({ work_history: 0, resume_text: 1, title_only: 0 });
    expect(ranked[0]!.row.qualify.score).toBeGreaterThanOrEqual(7);
  });

  test('title-only rows are scored on the title, listed as thin, and say so in gaps', () => {
    const { ranked, thinProfiles } = qualifyCandidates(SPEC, [seniorBackend, titleOnly], NOW);
    expect(thinProfiles).toEqual([1]);
    const thin = ranked.find((entry) => entry.position === 1)!.row.qualify;
    expect(thin.basis).toBe('title_only');
    expect(thin.gaps).toContain('no work history: scored on title, employer and location only');
  });

  test('the same input always gives the same cells', () => {
    const once = qualifyCandidates(SPEC, [seniorBackend, designer, titleOnly], NOW);
    expect(qualifyCandidates(SPEC, [seniorBackend, designer, titleOnly], NOW)).toEqual(once);
  });

  test('a role ended long ago earns no recency points', () => {
    const former = {
      experience: [role('Backend Engineer', 'Old', '2005-01', '2012-01'), role('Florist', 'Bloom', '2012-02', null)],
    };
    const { ranked } = qualifyCandidates(SPEC, [former], NOW);
    expect(ranked[0]!.row.qualify.summary).toMatch(/last matching role ended 14 years ago \(\+0\.0\)/);
  });
});

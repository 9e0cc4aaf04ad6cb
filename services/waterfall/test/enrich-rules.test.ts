import { RdeError } from '@rde/platform';
import { CHAINS, inputFor, offeredValues } from '../src/domain/enrich/chains';
import { employerDomain, nameMatchesDomain } from '../src/domain/enrich/company-match';
import { canonicalJson, replayKeyOf, validationChargeIdOf } from '../src/domain/enrich/ids';
import { monthsBetween, profileOf } from '../src/domain/enrich/profile';
import { rowsOf } from '../src/domain/enrich/request';
import { cappedWalk, spendingCapWarning } from '../src/domain/enrich/spending-cap';
import { subjectOf } from '../src/domain/enrich/subject';
import {
  companyMatchOf,
  personalEmailScreen,
  personalEmailVerdict,
  phoneVerdict,
  profileVerdict,
  workEmailVerdict,
} from '../src/domain/enrich/verdicts';
import {
  afterOpenJob,
  afterVerdict,
  batchesOf,
  chargedOf,
  correlate,
  enrichedRow,
  refOf,
  startWalk,
} from '../src/domain/enrich/walk';

const email = CHAINS.email_enrichment;
const profiles = CHAINS.linkedin_profile;

describe('rule 1: stop at the first real hit; only the hitting step is billed', () => {
  test('misses cost 0 and move on; the hit ends the walk and is billed its price', () => {
    let walk = startWalk();
    walk = afterVerdict(email, walk, { kind: 'miss', outcome: 'no_result' }, 1000);
    expect(walk).toMatchObject({ next: 1, done: false });
    walk = afterVerdict(email, walk, { kind: 'hit', value: 'ada@acme.com' }, 1000);
    expect(walk.done).toBe(true);
    expect(walk.steps.map((s) => [s.step, s.outcome, s.charged])).toEqual([
      ['mailfinder.find', 'no_result', 0],
      ['bulkmail.submit', 'hit', 1000],
    ]);
    expect(chargedOf(walk)).toBe(1000);
  });

  test('a rejected result is a free miss, and the last miss ends the walk without a charge', () => {
    let walk = startWalk();
    for (let i = 0; i < email.steps.length; i++) {
      walk = afterVerdict(email, walk, { kind: 'miss', outcome: 'company_mismatch' }, 1000);
    }
    expect(walk.done).toBe(true);
    expect(chargedOf(walk)).toBe(0);
    expect(walk.found).toBeUndefined();
  });
});

describe('rule 2: personal_email rejects work addresses and bills the validator per address', () => {
  const subject = subjectOf({ name: 'Ada Lovelace', company_domain: 'hooli.com' });

  test('an address on the own company domain is corporate_domain without validation', () => {
    expect(personalEmailScreen(subject, 'ada@hooli.com')).toMatchObject({ outcome: 'corporate_domain' });
    expect(personalEmailScreen(subjectOf({ company_name: 'Hooli' }), 'ada@hooli.com')).toMatchObject({
      outcome: 'corporate_domain',
    });
    expect(personalEmailScreen(subject, 'ada@gmail.com')).toBeUndefined();
  });

  test('another employer is company_mismatch, a bounce invalid_email, a deliverable free mailbox a hit', () => {
    expect(personalEmailVerdict('ada@globex.com', { result: 'undeliverable', free: false })).toMatchObject({
      outcome: 'company_mismatch',
    });
    expect(personalEmailVerdict('ada@gmail.com', { result: 'undeliverable', free: true })).toMatchObject({
      outcome: 'invalid_email',
    });
    expect(personalEmailVerdict('ada@hotmail.com', { result: 'unknown', free: false })).toMatchObject({
      outcome: 'invalid_email',
      detail: 'unknown',
    });
    expect(personalEmailVerdict('ada@gmail.com', { result: 'deliverable', free: true })).toEqual({
      kind: 'hit',
      value: 'ada@gmail.com',
    });
  });

  test('the validator charge is keyed by the address, so two providers offering it bill once', () => {
    expect(validationChargeIdOf('enr_1', 'Ada@Gmail.com ')).toBe(validationChargeIdOf('enr_1', 'ada@gmail.com'));
    expect(validationChargeIdOf('enr_1', 'ada@gmail.com')).not.toBe(validationChargeIdOf('enr_1', 'bo@gmail.com'));
  });
});

describe('rule 3: email_enrichment keeps only the current employer’s addresses', () => {
  test('company_domain is authoritative: another domain is company_mismatch and the chain goes on', () => {
    const subject = subjectOf({ name: 'Ada Lovelace', company_domain: 'https://www.initech.com/about' });
    expect(subject.company_domain).toBe('initech.com');
    expect(workEmailVerdict(subject, 'ada@globex.com')).toMatchObject({ kind: 'miss', outcome: 'company_mismatch' });
    expect(workEmailVerdict(subject, 'ada@initech.com')).toEqual({
      kind: 'hit',
      value: 'ada@initech.com',
      extra: { company_match: true, company_match_basis: 'company_domain' },
    });
  });

  test('with only company_name the verdict is reported without dropping', () => {
    const subject = subjectOf({ name: 'Ada Lovelace', company_name: 'Acme Labs' });
    expect(workEmailVerdict(subject, 'ada@acmelabs.com')).toMatchObject({
      kind: 'hit',
      extra: { company_match: true, company_match_basis: 'company_name' },
    });
    expect(workEmailVerdict(subject, 'ada@globex.com')).toMatchObject({
      kind: 'hit',
      extra: { company_match: false, company_match_basis: 'company_name' },
    });
  });

  test('placeholder, social and site-builder employer links count as no domain', () => {
    for (const text of [
      'n/a',
      '-',
      'linkedin.com/company/acme',
      'acme.wixsite.com/home',
      'https://facebook.com/acme',
    ]) {
      expect(employerDomain(text)).toBeUndefined();
    }
    expect(subjectOf({ company_domain: 'n/a', company_name: 'Acme' })).toMatchObject({ company_name: 'Acme' });
    expect(companyMatchOf(subjectOf({ company_domain: 'n/a' }))).toEqual({
      company_match: null,
      company_match_basis: null,
    });
  });

  test('a name matches its whole spelling, with or without a legal suffix, not a word inside another', () => {
    expect(nameMatchesDomain('ACME-Inc', 'acme.com')).toBe(true);
    expect(nameMatchesDomain('Golden Gate Analytics', 'gga.io')).toBe(true);
    expect(nameMatchesDomain('Kololy Technologies', 'kololy.com')).toBe(true);
    expect(nameMatchesDomain('Acme', 'goacme.com')).toBe(false);
  });

  test('every email row carries company_match and company_match_basis, found or not', () => {
    const row = { name: 'Ada Lovelace', company_name: 'Acme' };
    const missed = afterVerdict(email, startWalk(), { kind: 'miss', outcome: 'no_result', ends: true }, 0);
    expect(enrichedRow(email, row, subjectOf(row), missed)).toMatchObject({
      email: null,
      hit: false,
      company_match: null,
      company_match_basis: 'company_name',
    });
  });
});

describe('rule 4: linkedin_profile wants the right person with dated experience', () => {
  const answer = {
    profile_url: 'https://www.linkedin.com/in/ada',
    full_name: 'Ada Lovelace',
    headline: 'Engineer',
    positions: [
      { company: 'Globex', title: 'Analyst', starts_at: { year: 2019, month: 3 }, ends_at: { year: 2021, month: 2 } },
      { company: 'Initech', title: 'Engineer', starts_at: { year: 2021, month: 3 }, ends_at: null },
    ],
  };

  test('the normalised record lists the newest role first with duration_months', () => {
    const profile = profileOf('profilely', answer, '2026-01')!;
    expect(profile.current_company).toBe('Initech');
    expect(profile.experience.map((job) => [job.company, job.start, job.is_current, job.duration_months])).toEqual([
      ['Initech', '2021-03', true, 59],
      ['Globex', '2019-03', false, 24],
    ]);
    expect(monthsBetween('2025-01', '2025-03')).toBe(3);
  });

  test('a profile without dated experience is a free miss and the chain goes on', () => {
    const undated = profileOf(
      'litepro',
      { profile: { name: 'Ada Lovelace', experience: [{ company: 'Initech', title: 'Eng' }] } },
      '2026-01',
    );
    const verdict = profileVerdict(subjectOf({ name: 'Ada Lovelace' }), undated);
    expect(verdict).toMatchObject({ kind: 'miss', outcome: 'no_result', detail: 'no_dated_experience' });
    expect(afterVerdict(profiles, startWalk(), verdict, 1000)).toMatchObject({ done: false, next: 1 });
  });

  test('someone else’s profile ends the row with identity_mismatch and matched_name, at 0', () => {
    const profile = profileOf('profilely', answer, '2026-01');
    const verdict = profileVerdict(subjectOf({ name: 'Bob Smith' }), profile);
    expect(verdict).toMatchObject({
      outcome: 'identity_mismatch',
      ends: true,
      extra: { matched_name: 'Ada Lovelace' },
    });
    const walk = afterVerdict(profiles, startWalk(), verdict, 1000);
    expect(walk.done).toBe(true);
    expect(walk.steps[0]).toMatchObject({ outcome: 'identity_mismatch', charged: 0, matched_name: 'Ada Lovelace' });
  });

  test('an employer named on the row must appear in the experience, anywhere; a domain names its brand', () => {
    const profile = profileOf('profilely', answer, '2026-01');
    expect(profileVerdict(subjectOf({ name: 'Ada Lovelace', company_name: 'Globex Inc' }), profile).kind).toBe('hit');
    expect(profileVerdict(subjectOf({ name: 'Ada Lovelace', company_name: 'Hooli' }), profile)).toMatchObject({
      outcome: 'identity_mismatch',
    });
    expect(profileVerdict(subjectOf({ name: 'Ada Lovelace', company_domain: 'initech.com' }), profile).kind).toBe(
      'hit',
    );
  });
});

describe('phone_enrichment fills phone with the same discipline', () => {
  test('the first number is a hit, no number a free miss', () => {
    const phones = { phones: [{ number: '+15550100', type: 'mobile' }, { number: '+15550101' }] };
    const [value] = offeredValues({ kind: 'phones', path: ['phones'], field: 'number' }, phones);
    expect(phoneVerdict(value)).toEqual({ kind: 'hit', value: '+15550100' });
    expect(phoneVerdict(offeredValues({ kind: 'phone', path: ['mobile'] }, { mobile: null })[0])).toMatchObject({
      outcome: 'no_result',
    });
  });
});

describe('what each provider needs from a row', () => {
  test('the first alternative the row fully has is sent; a row with none gets nothing', () => {
    const [mailfinder, bulkmail] = email.steps;
    const subject = subjectOf({ full_name: 'Ada de Vries', company_name: 'Acme' });
    expect(inputFor(mailfinder!, subject)).toEqual({ first_name: 'Ada', last_name: 'de Vries', company: 'Acme' });
    expect(inputFor(bulkmail!, subjectOf({ linkedin_url: 'https://www.linkedin.com/in/ada' }))).toEqual({
      linkedin_url: 'https://www.linkedin.com/in/ada',
    });
    expect(inputFor(mailfinder!, subjectOf({ linkedin_url: 'https://www.linkedin.com/in/ada' }))).toBeUndefined();
  });
});

describe('rule 5: batches of pending rows, results matched by correlation key', () => {
  test('at most the vendor’s batch size per job', () => {
    expect(batchesOf([...Array(250).keys()], 100).map((b) => b.length)).toEqual([100, 100, 50]);
  });

  test('results out of order map to their own rows; unknown and repeated keys are ignored', () => {
    const refs = new Set([refOf(0), refOf(1), refOf(2)]);
    const results = [
      { ref: 'r2', email: 'c@x.com' },
      { ref: 'r0', email: 'a@x.com' },
      { ref: 'r9', email: 'z@x.com' },
      { ref: 'r1', email: 'b@x.com' },
      { ref: 'r1', email: 'dup@x.com' },
    ];
    const byRef = correlate(results, 'ref', refs);
    expect(byRef.get('r0')).toEqual({ ref: 'r0', email: 'a@x.com' });
    expect(byRef.get('r2')).toEqual({ ref: 'r2', email: 'c@x.com' });
    expect(byRef.has('r1')).toBe(false);
    expect(byRef.has('r9')).toBe(false);
  });
});

describe('rule 7: the replay key of an identical rows batch', () => {
  test('key order inside a row does not matter; content, capability and workspace do', () => {
    const a = replayKeyOf('ws1', 'email_enrichment', [{ name: 'Ada', company_domain: 'acme.com' }]);
    expect(replayKeyOf('ws1', 'email_enrichment', [{ company_domain: 'acme.com', name: 'Ada' }])).toBe(a);
    expect(replayKeyOf('ws2', 'email_enrichment', [{ name: 'Ada', company_domain: 'acme.com' }])).not.toBe(a);
    expect(replayKeyOf('ws1', 'personal_email', [{ name: 'Ada', company_domain: 'acme.com' }])).not.toBe(a);
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });
});

describe('rule 8: an open job ends the row with still_enriching at 0', () => {
  test('the step and the row carry job_id, resume, reason and a hint', () => {
    const resume = { tool: 'enrich_jobs', method: 'reachout', id_arg: 'job_id' };
    const walk = afterOpenJob(email, { next: 2, steps: [], done: false }, 'reachout', 'lk_1', resume);
    expect(walk.steps[0]).toEqual({
      step: 'reachout.submit',
      outcome: 'still_enriching',
      charged: 0,
      job_id: 'lk_1',
      resume,
    });
    const row = enrichedRow(email, { linkedin_url: 'u' }, subjectOf({ linkedin_url: 'u' }), walk);
    expect(row).toMatchObject({ email: null, job_id: 'lk_1', resume, reason: 'still_enriching' });
    expect(row.hint).toEqual(expect.stringContaining('/enrich/jobs/reachout/lk_1'));
  });
});

describe('bad input is refused before anything is spent', () => {
  const refusal = (request: object) => {
    try {
      rowsOf(request);
    } catch (error) {
      if (error instanceof RdeError) return { status: error.httpStatus, body: error.body };
      throw error;
    }
    throw new Error('expected a refusal');
  };

  test('rows and payload together, rows that are not objects, more than 100 rows, no rows', () => {
    expect(refusal({ rows: [{}], payload: {} })).toMatchObject({ status: 400, body: { error: 'invalid_payload' } });
    expect(refusal({ rows: [{}, 'x', [1]] }).body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'rows', 1] }),
      expect.objectContaining({ loc: ['body', 'rows', 2] }),
    ]);
    expect(refusal({ rows: Array.from({ length: 101 }, () => ({})) }).status).toBe(422);
    expect(refusal({}).status).toBe(422);
    expect(rowsOf({ payload: { name: 'Ada' } })).toEqual([{ name: 'Ada' }]);
  });
});

describe('rule 9: rows a spending cap left out', () => {
  test('every provider of the chain is a free skip with detail spending_cap_reached; the row is final', () => {
    const walk = cappedWalk(CHAINS.personal_email);
    expect(walk.done).toBe(true);
    expect(chargedOf(walk)).toBe(0);
    expect(walk.steps).toEqual([
      { step: 'persona.lookup', outcome: 'skip', charged: 0, detail: 'spending_cap_reached' },
      { step: 'homebase.lookup', outcome: 'skip', charged: 0, detail: 'spending_cap_reached' },
    ]);
  });

  test('one warning: rows affected, providers skipped (the validator too), the cap scope', () => {
    const refusal = { reason: 'spending_cap_reached', scope: 'member', detail: 'Past your cap.' } as const;
    const warning = spendingCapWarning(CHAINS.personal_email, 4, refusal);
    expect(warning).toMatchObject({
      code: 'spending_cap_reached',
      rows_affected: 4,
      providers_skipped: ['persona', 'homebase', 'verimail'],
      cap_scope: 'member',
      message: expect.stringContaining('Past your cap.'),
    });
  });
});

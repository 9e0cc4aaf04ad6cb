import Ajv from 'ajv';
import { publicSchemas } from '@rde/proto';
import { runBody } from '../src/routes/enrich-runs/schemas';

/**
 * The wording of a 422 (decision 0052): raw validator issues from the gateway's own ajv options
 * over the real request schemas, turned into the spec's validation list.
 */
const ajv = new Ajv({ ...publicSchemas.BODY_VALIDATION });

function detailOf(schema: object, value: unknown) {
  const validate = ajv.compile(schema);
  expect(validate(value)).toBe(false);
  return publicSchemas.validationRefusal('body', validate.errors!, schema).body.detail as { msg: string }[];
}

/** A provider method's payload: closed filters with vendor names (the catalog's are built so). */
const vendorPayload = {
  type: 'object',
  properties: {
    query: {
      type: 'object',
      properties: {
        job_title: { type: 'array' },
        location: { type: 'array' },
        job_company_name: { type: 'array' },
      },
      additionalProperties: false,
    },
    size: { type: 'integer' },
  },
  additionalProperties: false,
} as const;

describe('validation messages', () => {
  test('an unknown property is named in loc and msg, with the allowed names when nothing is close', () => {
    expect(detailOf(publicSchemas.callBody, { query: {} })).toEqual([
      {
        loc: ['body', 'query'],
        msg: "unknown property 'query'; allowed: payload, args, kwargs, dry_run, session_id",
        type: 'extra_forbidden',
      },
    ]);
  });

  test('an alias of a declared property is answered with a did-you-mean of its full path', () => {
    expect(detailOf(vendorPayload, { query: { titles: ['CTO'], locations: ['Paris'], company_names: ['x'] } })).toEqual(
      [
        {
          loc: ['body', 'query', 'titles'],
          msg: "unknown property 'titles'; did you mean 'query.job_title'?",
          type: 'extra_forbidden',
        },
        {
          loc: ['body', 'query', 'locations'],
          msg: "unknown property 'locations'; did you mean 'query.location'?",
          type: 'extra_forbidden',
        },
        {
          loc: ['body', 'query', 'company_names'],
          msg: "unknown property 'company_names'; did you mean 'query.job_company_name'?",
          type: 'extra_forbidden',
        },
      ],
    );
  });

  test('a typo is answered with the nearest name; a property one level too high with its nested path', () => {
    expect(detailOf(vendorPayload, { query: { job_titel: [] }, sise: 5 })).toEqual([
      { loc: ['body', 'sise'], msg: "unknown property 'sise'; did you mean 'size'?", type: 'extra_forbidden' },
      {
        loc: ['body', 'query', 'job_titel'],
        msg: "unknown property 'job_titel'; did you mean 'query.job_title'?",
        type: 'extra_forbidden',
      },
    ]);
    expect(detailOf(publicSchemas.searchToolBody, { query: { titles: ['CTO'] } })).toEqual([
      {
        loc: ['body', 'query'],
        msg: "unknown property 'query'; did you mean 'payload.query'?",
        type: 'extra_forbidden',
      },
    ]);
  });

  test('a name like nothing declared gets no suggestion', () => {
    const [item] = detailOf(vendorPayload, { query: { zzzzzz: 1 } });
    expect(item.msg).toBe("unknown property 'zzzzzz'; allowed: job_title, location, job_company_name");
  });

  test('an enum lists its allowed values', () => {
    expect(detailOf(publicSchemas.searchBody, { coverage: 'all' })).toEqual([
      { loc: ['body', 'coverage'], msg: 'must be one of: single, max', type: 'enum' },
    ]);
  });

  test('a value matching no alternative is one line saying what each would take, not one line per branch', () => {
    expect(detailOf(runBody, { input: 'ds_1', steps: ['email'] })).toEqual([
      {
        loc: ['body', 'steps', 0],
        msg:
          'must be one of: email_enrichment, personal_email, linkedin_profile, phone_enrichment; ' +
          'or an object; or a string matching ^[a-z0-9_-]{1,64}\\.[a-z0-9_]{1,64}$',
        type: 'anyOf',
      },
    ]);
  });

  test('alternatives that each require a property are one line naming them, whether none or several are given', () => {
    expect(detailOf(runBody, { steps: ['email_enrichment'] })).toEqual([
      { loc: ['body'], msg: "must have exactly one of: 'input', 'input_rows'", type: 'missing' },
    ]);
    expect(detailOf(runBody, { input: 'ds_1', input_rows: [{}], steps: ['email_enrichment'] })).toEqual([
      { loc: ['body'], msg: "must have only one of: 'input', 'input_rows'", type: 'oneOf' },
    ]);
    expect(detailOf(publicSchemas.enrichBody, {})).toEqual([
      { loc: ['body'], msg: "must have at least one of: 'rows', 'payload'", type: 'missing' },
    ]);
  });

  test('the alternative that got furthest is the one reported, with its own problem', () => {
    expect(detailOf(runBody, { input: 'ds_1', steps: [{ tool: 'a', method: 'b', extra: 1 }] })).toEqual([
      {
        loc: ['body', 'steps', 0, 'extra'],
        msg: "unknown property 'extra'; allowed: tool, method, args",
        type: 'extra_forbidden',
      },
    ]);
    expect(detailOf(publicSchemas.searchBody, { query: { titles: [{ nested: true }] } })).toEqual([
      { loc: ['body', 'query', 'titles', 0], msg: 'must be a string; or a number', type: 'anyOf' },
    ]);
  });

  test('a missing required property is named', () => {
    expect(detailOf(publicSchemas.resumeBody, { payload: {} })).toEqual([
      { loc: ['body', 'payload', 'job_id'], msg: "missing required property 'job_id'", type: 'missing' },
    ]);
  });

  test('the same problem raised twice is reported once', () => {
    const twice = { type: 'object', allOf: [{ required: ['name'] }, { required: ['name'] }] };
    expect(detailOf(twice, {})).toEqual([
      { loc: ['body', 'name'], msg: "missing required property 'name'", type: 'missing' },
    ]);
  });
});

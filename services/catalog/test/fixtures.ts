import type { ProviderDeclaration } from '../src/providers/declaration';

/** A small vendor declaration for tests: a per-record search, a per-hit lookup and a per-call validator. */
export const TEST_PROVIDER: ProviderDeclaration = {
  tool: 'people_db_x',
  module: 'people_search',
  description: 'A test people database',
  sandboxPath: '/x',
  auth: { header: 'X-Api-Key', credential: 'people_db_x', sandboxKey: 'test-key' },
  methods: [
    {
      name: 'search',
      description: 'People by filters',
      http: 'POST',
      path: '/v1/search',
      parameters: [
        {
          name: 'titles',
          type: 'array',
          required: true,
          description: 'job titles',
          schema: { items: { type: 'string' } },
        },
        { name: 'limit', type: 'integer', description: 'rows wanted', schema: { minimum: 1, maximum: 100 } },
      ],
      cost: { unit: 'record', millicredits: 500, note: 'per returned profile' },
      acceptsVendorOptions: true,
      rows: { path: ['data', 'people'], countParameter: 'limit', defaultCount: 10, maxCount: 100 },
    },
    {
      name: 'lookup',
      description: 'A person by LinkedIn URL',
      http: 'GET',
      path: '/v1/person',
      parameters: [{ name: 'linkedin_url', type: 'string', required: true, description: 'profile URL' }],
      cost: { unit: 'hit', millicredits: 2000, note: 'a miss is free' },
      hitPath: ['person'],
    },
    {
      name: 'validate_email',
      description: 'Deliverability of one address',
      http: 'GET',
      path: '/v1/validate',
      parameters: [{ name: 'email', type: 'string', required: true, description: 'the address' }],
      cost: { unit: 'call', millicredits: 50, note: 'found or not' },
    },
    {
      name: 'regions',
      description: 'The region codes the search accepts',
      http: 'GET',
      path: '/v1/regions',
      parameters: [],
      cost: { unit: 'call', millicredits: 0, note: 'free' },
    },
  ],
};

export const OTHER_PROVIDER: ProviderDeclaration = {
  ...TEST_PROVIDER,
  tool: 'phone_x',
  module: 'phone_finding',
  description: 'A test phone finder',
  methods: [TEST_PROVIDER.methods[1]],
};

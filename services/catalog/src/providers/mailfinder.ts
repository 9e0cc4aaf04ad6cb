import { defineProvider } from './define';
import { text } from './json-schema';

/** MailFinder: a synchronous work-email finder by name at a company, billed per email found. */
export const mailfinder = defineProvider('mailfinder', {
  description: 'MailFinder: the work email of a person at a company, by name and company domain or name',
  methods: [
    {
      name: 'find',
      description: 'The work email of one person at a company (give domain or company)',
      http: 'GET',
      path: '/v1/email',
      parameters: [
        { name: 'first_name', type: 'string', required: true, description: 'first name', schema: text },
        { name: 'last_name', type: 'string', required: true, description: 'last name', schema: text },
        { name: 'domain', type: 'string', description: 'the employer’s domain', schema: text },
        { name: 'company', type: 'string', description: 'the employer’s name, resolved to its domain', schema: text },
      ],
      oneOfRequired: [['domain', 'company']],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each lookup that returns an email; a miss is free' },
      hitPath: ['data', 'email'],
      capabilities: {
        lookup_by: [
          ['first_name', 'last_name', 'domain'],
          ['first_name', 'last_name', 'company'],
        ],
      },
    },
  ],
});

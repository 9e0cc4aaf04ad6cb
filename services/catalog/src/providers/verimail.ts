import { defineProvider } from './define';
import { text } from './json-schema';

/** VeriMail: an email deliverability validator, billed per address checked whatever the verdict. */
export const verimail = defineProvider('verimail', {
  description: 'VeriMail: deliverability of one email address (deliverable, undeliverable, risky or unknown)',
  methods: [
    {
      name: 'verify',
      description: 'Deliverability of one address',
      http: 'POST',
      path: '/v3/verify',
      parameters: [
        { name: 'email', type: 'string', required: true, description: 'the address to check', schema: text },
      ],
      cost: { unit: 'call', millicredits: 1_000, note: 'each address checked, whatever the verdict' },
    },
  ],
});

import type { ProviderDeclaration } from './declaration';
import { text } from './json-schema';

/** VeriMail: an email deliverability validator, billed per address checked whatever the verdict. */
export const verimail: ProviderDeclaration = {
  tool: 'verimail',
  module: 'email_validator',
  description: 'VeriMail: deliverability of one email address (deliverable, undeliverable, risky or unknown)',
  sandboxPath: '/verimail',
  auth: { header: 'X-Verimail-Auth', credential: 'verimail', sandboxKey: 'sbx-verimail-1b9e44' },
  rate: { perSecond: 20, burst: 40 },
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
};

import type { OperationGroup } from '../operation-docs';

const PLAN_CHOICE = { plan_id: 'starter', cadence: 'monthly' } as const;
/** Owner-only, like every route that changes billing (spec "Billing"; Authentication, rule 8). */
const OWNER_ONLY = 'Owner only.';

export const billing: OperationGroup = {
  tag: 'Billing',
  about:
    'Credits, plans and subscriptions, the ledger, spending caps, members and invites. Any member may read billing; ' +
    'every change is owner-only.',
  operations: {
    'GET /api/v2/billing/plans': {
      summary: 'List plans',
      spec: 'Billing, GET /api/v2/billing/plans',
      does: 'The plan catalog with prices, monthly credits and top-up tiers. Public.',
    },
    'GET /api/v2/me': {
      summary: 'Who am I',
      spec: 'Billing, GET /api/v2/me',
      does: "The key's workspace, user and role, and the workspace's plan state.",
    },
    'GET /billing/balance': {
      summary: 'Read the balance',
      spec: 'Billing, GET /billing/balance',
      does: 'Credits held and available, the recent ledger entries and the plan state.',
    },
    'GET /api/v2/billing/overview': {
      summary: 'Billing overview',
      spec: 'Billing, GET /api/v2/billing/overview',
      does: "The workspace's plan, subscription, balance and this period's spend in one answer.",
    },
    'GET /api/v2/billing/ledger.csv': {
      summary: 'Export the ledger as CSV',
      spec: 'Billing, GET /api/v2/billing/ledger.csv',
      does: 'Every grant, charge and top-up of the workspace, oldest first, as CSV.',
    },
    'GET /api/v2/billing/auto-top-up': {
      summary: 'Read the auto top-up setting',
      spec: 'Billing, GET /api/v2/billing/auto-top-up',
      does: 'Whether the balance is topped up automatically, and by how much.',
    },
    'POST /api/v2/billing/subscription/checkout': {
      summary: 'Start a subscription checkout',
      spec: 'Billing, POST /api/v2/billing/subscription/checkout',
      does: `Answers the payment provider's checkout \`url\` for a plan and cadence. ${OWNER_ONLY}`,
      body: PLAN_CHOICE,
    },
    'POST /api/v2/billing/credits/checkout': {
      summary: 'Buy credits',
      spec: 'Billing (credit checkout: paths not shown by the spec)',
      does: `Answers the checkout \`url\` for one top-up tier of the plan catalog. ${OWNER_ONLY}`,
      body: { credits: 500 },
    },
    'POST /api/v2/billing/subscription/change': {
      summary: 'Change plan',
      spec: 'Billing, POST /api/v2/billing/subscription/change',
      does: `An upgrade applies at once; a downgrade is scheduled for the period's end (\`effective_at\`). ${OWNER_ONLY}`,
      body: PLAN_CHOICE,
    },
    'POST /api/v2/billing/subscription/cancel': {
      summary: 'Cancel or resume the subscription',
      spec: 'Billing, POST /api/v2/billing/subscription/cancel',
      does: `\`resume: false\` cancels at the period's end; \`resume: true\` takes the cancellation back. ${OWNER_ONLY}`,
      body: { resume: false },
    },
    'POST /api/v2/billing/portal': {
      summary: 'Open the billing portal',
      spec: 'Billing, POST /api/v2/billing/portal',
      does: `Answers the \`url\` of the payment provider's self-serve portal (cards, invoices). ${OWNER_ONLY}`,
    },
    'POST /api/v2/billing/stripe/webhook': {
      summary: 'Payment provider webhook',
      spec: 'Billing (the payment provider calls it; not for clients)',
      does: 'Stripe posts subscription and payment events here; each is verified by its signature and applied once.',
    },
    'PUT /api/v2/billing/spending-cap': {
      summary: 'Set the workspace spending cap',
      spec: 'Billing, PUT /api/v2/billing/spending-cap',
      does: `Caps the credits the workspace may spend in any rolling 30 days; calls past it are not asked. ${OWNER_ONLY}`,
      body: { cap: 500 },
    },
    'DELETE /api/v2/billing/spending-cap': {
      summary: 'Remove the workspace spending cap',
      spec: 'Billing, DELETE /api/v2/billing/spending-cap',
      does: `Answers \`{cap: null}\`. ${OWNER_ONLY}`,
    },
    'PUT /api/v2/billing/session-cap': {
      summary: 'Set the default session cap',
      spec: 'Billing, PUT /api/v2/billing/session-cap',
      does: `A cap in USD inherited by sessions started afterwards; running sessions keep their own. ${OWNER_ONLY}`,
      body: { cap: 5 },
    },
    'DELETE /api/v2/billing/session-cap': {
      summary: 'Remove the default session cap',
      spec: 'Billing, DELETE /api/v2/billing/session-cap',
      does: `Answers \`{cap: null}\`. ${OWNER_ONLY}`,
    },
    'PUT /api/v2/workspaces/members/{user_id}/spend-cap': {
      summary: "Set a member's spend cap",
      spec: 'Billing, PUT /api/v2/workspaces/members/{user_id}/spend-cap',
      does: `Caps what one member may spend in any rolling 30 days, in USD. ${OWNER_ONLY}`,
      body: { cap_usd: 20 },
    },
    'DELETE /api/v2/workspaces/members/{user_id}/spend-cap': {
      summary: "Remove a member's spend cap",
      spec: 'Billing, DELETE /api/v2/workspaces/members/{user_id}/spend-cap',
      does: `Answers \`{user_id, cap_usd: null}\`. ${OWNER_ONLY}`,
    },
    'GET /api/v2/workspaces/members/spend-caps': {
      summary: "List members' spend caps",
      spec: 'Billing, GET /api/v2/workspaces/members/spend-caps',
      does: 'Every member with their cap and what they spent in the last 30 days. Any member may read it.',
    },
    'DELETE /api/v2/workspaces/members/{user_id}': {
      summary: 'Remove a member',
      spec: 'Billing, workspace members (an addition to the spec: decision 0087)',
      does:
        'Ends their membership: their API keys and browser sessions for this workspace are revoked and pending ' +
        'invites to or from them withdrawn; their charges stay in the ledger. Answers `{ok: true, deleted: <user_id>}`. ' +
        'The owner removes anyone; a member may remove only themselves (leave). The last owner cannot be removed (409).',
    },
    'PUT /api/v2/workspaces/members/{user_id}/role': {
      summary: "Change a member's role",
      spec: 'Billing, workspace members (an addition to the spec: decision 0087)',
      does:
        'Makes a member an `owner` or an owner a `member`; answers the member row as the spend-caps list shows it. ' +
        `Demoting the last owner is refused (409). ${OWNER_ONLY}`,
      body: { role: 'owner' },
    },
    'GET /api/v2/workspace/invites': {
      summary: 'List invites',
      spec: 'Billing, GET /api/v2/workspace/invites',
      does: "The workspace's open invites and whether the plan has a seat left.",
    },
    'POST /api/v2/workspace/invites': {
      summary: 'Invite a member',
      spec: 'Billing, POST /api/v2/workspace/invites',
      does: `Emails an invite; an optional \`spend_cap_usd\` applies when it is accepted. ${OWNER_ONLY}`,
      body: { email: 'grace@acme.com', spend_cap_usd: 20 },
    },
  },
};

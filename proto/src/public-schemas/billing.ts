/**
 * The credit top-up tiers in whole credits (decision 0040): the only figures a credit checkout
 * accepts. Billing's plan catalog prices each one, so the two cannot drift apart.
 */
export const TOPUP_TIER_CREDITS = [500, 2_000, 5_000] as const;

export type TopupTierCredits = (typeof TOPUP_TIER_CREDITS)[number];

/** `POST /billing/credits/checkout`: a credit purchase names one of the top-up tiers by its credits. */
export const creditCheckoutBody = {
  type: 'object',
  properties: {
    credits: {
      type: 'integer',
      enum: TOPUP_TIER_CREDITS,
      description: "whole credits of one of the plan catalog's topup_tiers",
    },
  },
  required: ['credits'],
  additionalProperties: false,
} as const;

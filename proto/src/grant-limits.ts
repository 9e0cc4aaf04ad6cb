/**
 * The most credits one operator grant may give (rpc CreditGrantService.GrantCredits, decision
 * 0051): billing refuses more, and auth's RDE_DEV_GRANT_CREDITS is held to it at start.
 */
export const GRANT_CREDITS_MAX = 1_000_000;

import type { Handlers } from '@rde/platform';
import type { signin } from '@rde/proto';
import type { Claims } from '../app/claims';
import type { ExternalSignIn } from '../app/external-sign-in';
import type { FeedbackDesk } from '../app/feedback';
import type { Integrations } from '../app/integrations';
import type { Invites } from '../app/invites';
import type { MagicLinks } from '../app/magic-links';
import type { Passwords } from '../app/passwords';
import type { Sessions } from '../app/sessions';
import {
  feedbackInput,
  loginInput,
  parseInput,
  passwordInput,
  signInRequestInput,
  externalSignInInput,
  integrationAppInput,
  supportInput,
  verifyCodeInput,
} from '../domain/inputs';
import { required } from './handlers';
import { toFeedback, toIntegration, toInvite, toSignInResult } from './messages';

export interface SignInUseCases {
  readonly magicLinks: MagicLinks;
  readonly passwords: Passwords;
  readonly sessions: Sessions;
  readonly claims: Claims;
  readonly external: ExternalSignIn;
  readonly invites: Invites;
  readonly integrations: Integrations;
  readonly feedback: FeedbackDesk;
}

/** Proto ⇄ use-case translation only. */
export function signInHandlers(useCases: SignInUseCases): Handlers<typeof signin.SignInServiceService> {
  const { magicLinks, passwords, sessions, claims, external, invites, integrations, feedback } = useCases;
  return {
    async sendMagicLink(request) {
      const input = parseInput(signInRequestInput, request);
      await magicLinks.send(input);
      return { email: input.email };
    },
    async verifyMagicLink(request) {
      return { result: toSignInResult(await magicLinks.verify(request.token)) };
    },
    async verifyCode(request) {
      const { email, code } = parseInput(verifyCodeInput, request);
      return { result: toSignInResult(await magicLinks.verifyCode(email, code)) };
    },
    async startPasswordSignup(request) {
      const input = parseInput(signInRequestInput, request);
      await magicLinks.sendSetPassword(input);
      return { email: input.email };
    },
    async completePasswordSignup(request) {
      const { token, password } = parseInput(passwordInput, request);
      return { result: toSignInResult(await passwords.completeSignup(token, password)) };
    },
    async passwordLogin(request) {
      const { email, password, cliToken } = parseInput(loginInput, request);
      return { result: toSignInResult(await passwords.login(email, password, cliToken)) };
    },
    async logout(request) {
      await sessions.revokeBearer(request.token);
      return {};
    },
    async startExternalSignIn(request) {
      const { cliToken, next, inviteCode } = parseInput(externalSignInInput, request);
      return { authorizationUrl: await external.start({ cliToken, next, inviteCode }, request.redirectUri) };
    },
    async finishExternalSignIn(request) {
      return { result: toSignInResult(await external.finish(request.callbackUrl)) };
    },
    async saveIntegrationApp(request, { caller }) {
      const { clientId, clientSecret } = parseInput(integrationAppInput, request);
      await integrations.saveApp(required(caller), request.provider, { clientId, clientSecret });
      return {};
    },
    async startIntegration(request, { caller }) {
      return integrations.start(required(caller), request.provider, request.redirectUri).then(({ url, state }) => ({
        authorizationUrl: url,
        state,
      }));
    },
    async finishIntegration(request) {
      await integrations.finish(request.provider, request.callbackUrl, request.cookieState);
      return {};
    },
    async listIntegrations(_request, { caller }) {
      return { integrations: (await integrations.list(required(caller))).map(toIntegration) };
    },
    async disconnectIntegration(request, { caller }) {
      return { wasConnected: await integrations.disconnect(required(caller), request.provider) };
    },
    async startClaim(request) {
      return claims.start(request.clientIp);
    },
    async getClaim(request) {
      return { status: await claims.view(request.claimId) };
    },
    async approveClaimAnonymously(request) {
      return { workspaceId: await claims.approveAnonymously(request.claimId) };
    },
    async approveClaim(request, { caller }) {
      return {
        workspaceId: await claims.approveSignedIn(required(caller), request.claimId, request.inviteCode || undefined),
      };
    },
    async pollClaim(request) {
      const polled = await claims.poll(request.claimId);
      return { status: polled.status, token: polled.token ?? '', workspaceId: polled.workspaceId ?? '' };
    },
    async listInvites(_request, { caller }) {
      return { invites: (await invites.list(required(caller))).map(toInvite) };
    },
    async createInvite(request, { caller }) {
      const created = await invites.create(required(caller), request.email, request.spendCapUsd ?? null);
      return { invite: toInvite(created.invite), inviteCode: created.code };
    },
    async createFeedback(request, { caller }) {
      const { message, category } = parseInput(feedbackInput, request);
      const report = await feedback.file(required(caller), message, category);
      if (request.fileIssue) feedback.fileIssueLater(report);
      return { feedback: toFeedback(report) };
    },
    async listFeedback(request, { caller }) {
      const { reports, total } = await feedback.page(required(caller), request.offset, request.limit);
      return { feedback: reports.map(toFeedback), total };
    },
    async submitSupport(request, { caller }) {
      const { message, category, email } = parseInput(supportInput, request);
      const signedIn = caller?.userId ? caller : undefined;
      return { feedbackId: (await feedback.submit(signedIn, message, category, email)) ?? '' };
    },
  };
}

import type { ReactNode } from 'react';
import { api } from '../api/client';
import type { ApiProblem } from '../api/errors';
import { Problem } from './Problem';

/**
 * The frame of every signed-in page: navigation and sign-out. A 401 (no or expired session) shows
 * the way to the sign-in page, which returns here; any other problem loading the page is said above it.
 */
export function SignedInLayout({
  title,
  problem,
  back,
  children,
}: {
  title: string;
  problem?: ApiProblem;
  /** A one-item page's way back to its list. */
  back?: { href: string; label: string };
  children: ReactNode;
}) {
  const signOut = async () => {
    await api.POST('/api/v2/auth/logout');
    window.location.assign('/app/auth/signin');
  };
  const here = `${window.location.pathname}${window.location.search}`;
  return (
    <>
      <header>
        <nav aria-label="Dashboard">
          <a href="/app/">Home</a>
          <a href="/app/keys">API keys</a>
          <a href="/app/members">Members</a>
          <a href="/app/billing">Billing</a>
          <a href="/app/datasets">Datasets</a>
          <a href="/app/workflows">Workflows</a>
          <a href="/app/skills">Skills</a>
          <a href="/app/integrations">Integrations</a>
          <a href="/app/feedback">Feedback</a>
        </nav>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main>
        <h1>{title}</h1>
        {problem?.status === 401 ? (
          <p>
            <a href={`/app/auth/signin?${new URLSearchParams({ next: here })}`}>Sign in to see this page</a>
          </p>
        ) : (
          <>
            <Problem problem={problem} />
            {back && (
              <p>
                <a href={back.href}>{back.label}</a>
              </p>
            )}
            {children}
          </>
        )}
      </main>
    </>
  );
}

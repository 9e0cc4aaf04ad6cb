import { useCallback, useState } from 'react';
import { useLoaded } from '../../api/call';
import { SignedInLayout } from '../../components/SignedInLayout';
import { FeedbackForm } from './FeedbackForm';
import { FeedbackList } from './FeedbackList';
import { SupportForm } from './SupportForm';
import { feedbackPage } from './feedback-page';

/**
 * Product feedback (send, and the workspace's reports newest first) and the support form. The
 * support form also works signed out, as the public widget does (decision 0084).
 */
export function Feedback() {
  const [offset, setOffset] = useState(0);
  const { data, problem, reload } = useLoaded(useCallback(() => feedbackPage(offset), [offset]));
  const sent = () => (offset === 0 ? void reload() : setOffset(0));
  if (problem?.status === 401) return <SignedOut />;
  return (
    <SignedInLayout title="Feedback and support" problem={problem}>
      {data && (
        <>
          <FeedbackForm onSent={sent} />
          <FeedbackList page={data} onOffset={setOffset} />
          <SupportForm signedIn onSent={sent} />
        </>
      )}
    </SignedInLayout>
  );
}

function SignedOut() {
  const signIn = `/app/auth/signin?${new URLSearchParams({ next: '/app/feedback' })}`;
  return (
    <main>
      <h1>Contact support</h1>
      <p>
        <a href={signIn}>Sign in</a> to send product feedback and see your workspace's reports.
      </p>
      <SupportForm signedIn={false} onSent={() => undefined} />
    </main>
  );
}

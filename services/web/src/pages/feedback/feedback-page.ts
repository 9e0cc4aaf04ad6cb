import { api } from '../../api/client';
import { answered } from '../../api/call';

/** The API's default page of feedback. */
export const FEEDBACK_PAGE = 10;

/** One page of the workspace's reports, newest first. */
export const feedbackPage = (offset: number) =>
  answered(api.GET('/api/v2/feedback', { params: { query: { offset, limit: FEEDBACK_PAGE } } }));

export type FeedbackPage = Awaited<ReturnType<typeof feedbackPage>>;

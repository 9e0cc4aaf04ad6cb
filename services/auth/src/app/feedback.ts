import { type Caller, type Clock, type Logger, type Mail } from '@rde/platform';
import { newId } from '../domain/ids';
import type { AuthStore, FeedbackDocument } from '../store';
import { sendOr502 } from './emailed-links';

export interface SupportConfig {
  readonly inbox: string;
  /** An issue tracker's webhook for signed-in technical reports; undefined = none. */
  readonly issueWebhookUrl?: string;
}

/** Product feedback (stored per workspace) and the support widget (emailed to the inbox). */
export class FeedbackDesk {
  constructor(
    private readonly store: AuthStore,
    private readonly mail: Mail,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly support: SupportConfig,
  ) {}

  async file(caller: Caller, message: string, category: string): Promise<FeedbackDocument> {
    const report: FeedbackDocument = {
      _id: newId('fb'),
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      message,
      category,
      created_at_ms: this.clock.now(),
    };
    await this.store.feedback.insert(report);
    return report;
  }

  async page(caller: Caller, offset: number, limit: number): Promise<{ reports: FeedbackDocument[]; total: number }> {
    const [reports, total] = await Promise.all([
      this.store.feedback.page(caller.workspaceId, offset, limit),
      this.store.feedback.count(caller.workspaceId),
    ]);
    return { reports, total };
  }

  /**
   * Emails the support inbox first (502 when that fails, nothing stored). A signed-in technical
   * report is then stored as feedback and filed to the issue tracker; the tracker's failure is
   * logged, never returned: the email went out.
   */
  async submit(
    caller: Caller | undefined,
    message: string,
    category: string,
    replyTo?: string,
  ): Promise<string | undefined> {
    const who = caller?.userId
      ? `user ${caller.userId} in workspace ${caller.workspaceId}`
      : `anonymous (${replyTo ?? 'no reply address'})`;
    await sendOr502(this.mail, {
      to: this.support.inbox,
      subject: `[support/${category}] ${titleOf(message)}`,
      text: `From ${who}\n\n${message}`,
      replyTo,
    });
    if (!caller?.userId || category !== 'technical') return undefined;
    const report = await this.file(caller, message, category);
    this.fileIssueLater(report);
    return report._id;
  }

  /** Files a stored report to the issue tracker in the background: its failure is only logged. */
  fileIssueLater(report: FeedbackDocument): void {
    void this.fileIssue(report);
  }

  private async fileIssue(report: FeedbackDocument): Promise<void> {
    if (!this.support.issueWebhookUrl) return;
    try {
      const response = await fetch(this.support.issueWebhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: titleOf(report.message), body: report.message, feedback_id: report._id }),
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`issue tracker answered ${response.status}`);
    } catch (error) {
      this.logger.warn({ err: error, feedback_id: report._id }, 'filing a support report as an issue failed');
    }
  }
}

/** A report's title is its first line. */
export function titleOf(message: string): string {
  return message.trim().split('\n', 1)[0].trim().slice(0, 200);
}

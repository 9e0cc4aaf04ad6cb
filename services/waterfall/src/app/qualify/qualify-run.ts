import { createHash, randomBytes } from 'node:crypto';
import type { Caller, Logger } from '@rde/platform';
import type { DatasetClient } from '../../clients';
import type { QualifyOutcome } from '../../domain/qualify';
import type { CheckedQualify } from './qualify';

/** Rows written per UpdateRows call: bounded messages, and progress a poller can see. */
const WRITE_BATCH = 100;

export interface QualifyRunStarted {
  readonly runId: string;
  readonly datasetId: string;
  readonly outcome: QualifyOutcome;
}

/**
 * Rule 4: `async: true`. The candidates become a dataset (enrich_status `running`) before the call
 * answers; each row's qualify cell is then written at its position and the status set to
 * `completed` (or `failed`). The walk runs in the replica that took the call (the spec's "inline
 * walk"); scoring is already done, so only the writes are left to it.
 */
export class QualifyRuns {
  constructor(
    private readonly datasets: DatasetClient,
    private readonly logger: Logger,
  ) {}

  async start(checked: CheckedQualify, caller: Caller): Promise<QualifyRunStarted> {
    const runId = `qlf_${randomBytes(12).toString('hex')}`;
    const datasetId = `ds_${createHash('sha256').update(`qualify:${runId}`).digest('hex').slice(0, 24)}`;
    await this.datasets.createDataset(
      {
        datasetId,
        name: `qualify ${runId}`,
        rowsJson: Buffer.from(JSON.stringify(checked.rows)),
        source: 'qualify',
        runId,
        sessionId: caller.sessionId,
        copyOfDatasetId: '',
      },
      { caller },
    );
    await this.datasets.updateRows({ datasetId, rows: [], enrichStatus: 'running' }, { caller });
    void this.writeCells(datasetId, checked.outcome, caller);
    return { runId, datasetId, outcome: checked.outcome };
  }

  private async writeCells(datasetId: string, outcome: QualifyOutcome, caller: Caller): Promise<void> {
    try {
      for (let start = 0; start < outcome.ranked.length; start += WRITE_BATCH) {
        const rows = outcome.ranked.slice(start, start + WRITE_BATCH).map(({ position, row }) => ({
          index: position,
          rowJson: Buffer.from(JSON.stringify(row)),
        }));
        await this.datasets.updateRows({ datasetId, rows, enrichStatus: '' }, { caller });
      }
      await this.datasets.updateRows({ datasetId, rows: [], enrichStatus: 'completed' }, { caller });
    } catch (error) {
      this.logger.error({ err: error, datasetId }, 'qualify run failed');
      await this.datasets
        .updateRows({ datasetId, rows: [], enrichStatus: 'failed' }, { caller })
        .catch((failure: unknown) => this.logger.error({ err: failure, datasetId }, 'qualify run status not written'));
    }
  }
}

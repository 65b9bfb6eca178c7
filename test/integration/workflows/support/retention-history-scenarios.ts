import { RETENTION_CALLS_PER_RUN, type RetentionInput, type RetentionResult } from '../../../../workflows/retention';

/** One recorded retention pass (test/fixtures/histories/<name>.json), its activity answers scripted. */
export interface RetentionHistoryScenario {
  input: RetentionInput;
  /** Calls each collection takes: every one deletes `perCall` and reports more, but the last. */
  calls: { attempts: number; events: number };
  perCall: number;
  /** What the pass reports when it ends. */
  expected: RetentionResult['deleted'];
  /** The kept run closes by continuing as new (the pass's first run), or completes. */
  closes: 'completed' | 'continued-as-new';
}

const input: RetentionInput = { retentionDays: 30, eventGraceMs: 15_246_000, batchSize: 1000 };

/** The committed retention histories of the 1.0 shape; every one must replay from now on. */
export const retentionHistoryScenarios: Record<string, RetentionHistoryScenario> = {
  'retention-pass': { input, calls: { attempts: 2, events: 1 }, perCall: 1000, expected: { attempts: 2000, events: 1000 }, closes: 'completed' },
  'retention-continued': {
    input,
    calls: { attempts: RETENTION_CALLS_PER_RUN + 2, events: 1 },
    perCall: 1000,
    expected: { attempts: (RETENTION_CALLS_PER_RUN + 2) * 1000, events: 1000 },
    closes: 'continued-as-new',
  },
};

/** The id a retention scenario is recorded with. */
export const recordedRetentionWorkflowId = (name: string): string => `webhook-retention-history-${name}`;

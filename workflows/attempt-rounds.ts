import { condition } from '@temporalio/workflow';
import type { AttemptInput, AttemptLogEntry, AttemptResult } from '../activities/attempt';

/**
 * Runs an event's attempts in rounds and logs them in batches, at points of the history that
 * replay identically:
 * - every attempt that falls due in one activation (the first attempts of all subscriptions,
 *   or the retries whose timers fired together) goes out in one batch POST activity;
 * - settled attempts are written once no attempt is open.
 * Local activity results that arrive within one workflow task may be delivered one by one
 * while the workflow runs and all together when it replays; deciding a batch by "what has
 * arrived so far" would then differ on replay (a non-determinism error). Both rules depend only
 * on history events (start, timers, signals, and the end of every open attempt).
 */
export class AttemptRounds {
  private due: { input: AttemptInput; answer: (result: AttemptResult) => void }[] = [];
  private settling: { entry: AttemptLogEntry | undefined; written: () => void }[] = [];
  /** Attempts asked for and not yet settled. */
  private open = 0;
  private rounds = new Set<Promise<void>>();
  private closed = false;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly post: (inputs: AttemptInput[]) => Promise<AttemptResult[]>,
    private readonly record: (entries: AttemptLogEntry[]) => Promise<void>,
  ) {
    this.loops = [this.sendRounds(), this.writeLog()];
  }

  /** Makes the attempt in the next round; resolves with its result. */
  attempt(input: AttemptInput): Promise<AttemptResult> {
    this.open++;
    return new Promise((answer) => this.due.push({ input, answer }));
  }

  /**
   * The attempt is settled, with its entry to log (none when it was skipped). Resolves once the
   * batch holding it is written: only then may the delivery act on the outcome.
   */
  settled(entry: AttemptLogEntry | undefined): Promise<void> {
    this.open--;
    return new Promise((written) => this.settling.push({ entry, written }));
  }

  /** Sends and writes what is queued, then stops. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.loops);
  }

  private async sendRounds(): Promise<void> {
    for (;;) {
      await condition(() => this.due.length > 0 || (this.closed && this.rounds.size === 0));
      if (this.due.length === 0) return;
      const round = this.due.splice(0);
      // Not awaited here: a round that outlives a workflow task must not hold up the next one.
      const sent: Promise<void> = this.post(round.map((r) => r.input)).then((results) => {
        round.forEach((r, i) => r.answer(results[i]!));
        this.rounds.delete(sent);
      });
      this.rounds.add(sent);
    }
  }

  private async writeLog(): Promise<void> {
    for (;;) {
      await condition(() => (this.settling.length > 0 && this.open === 0) || (this.closed && this.settling.length === 0));
      if (this.settling.length === 0) return;
      const batch = this.settling.splice(0);
      const entries = batch.flatMap((b) => (b.entry === undefined ? [] : [b.entry]));
      if (entries.length > 0) await this.record(entries);
      for (const b of batch) b.written();
    }
  }
}

import { drainWorkflowId } from '../../../../workflows/ids';
import type { DrainResult } from '../../../../workflows/drain';

/** One recorded drain (test/fixtures/histories/<name>.json), its pages scripted. */
export interface DrainHistoryScenario {
  /** Held deliveries per page, oldest first; each page but the last says where the next starts. */
  pages: number[];
  /** Deliveries per second the pages give. */
  rate: number;
  /** After the pages: the subscription found paused again (the drain stops), or nothing left (it ends drained). */
  then: 'drained' | 'paused';
  /** How many settle calls find something held behind the cursor first (the drain reads from the start again). */
  heldBehind?: number;
  /** Held deliveries a read from the start finds after such a settle (absent: none). */
  behind?: number;
  /** Deliveries a run starts before it continues as new (absent: the workflow's default); the first run's history is kept. */
  startsPerRun?: number;
  /** The subscription gets the events in order: each held item carries its event's key and place (DRAIN_ORDERED_RUNS). */
  ordered?: boolean;
  expected: DrainResult['ended'];
}

/** How a scenario's kept run closed: completed, or continued as new (its first run is kept). */
export const drainCloses = (scenario: DrainHistoryScenario): 'completed' | 'continued-as-new' => (scenario.startsPerRun ? 'continued-as-new' : 'completed');

/** The committed drain histories; every one must replay from now on. */
export const drainHistoryScenarios: Record<string, DrainHistoryScenario> = {
  'drain-two-pages': { pages: [3, 2], rate: 20, then: 'drained', expected: 'drained' },
  'drain-paused-again': { pages: [2], rate: 5, then: 'paused', expected: 'paused' },
  'drain-continued': { pages: [2, 2, 1], rate: 50, then: 'drained', startsPerRun: 3, expected: 'drained' },
  'drain-held-behind': { pages: [2], rate: 20, then: 'drained', heldBehind: 1, behind: 1, expected: 'drained' },
  // A settle finds something held that a read from the start does not: the drain waits before the next pass (DRAIN_IDLE_WAIT).
  'drain-idle-wait': { pages: [2], rate: 20, then: 'drained', heldBehind: 2, behind: 0, expected: 'drained' },
  // A page's runs started together, each with its notBefore, the drain sleeping until the next page is due (DRAIN_PAGE_AT_ONCE).
  'drain-page-at-once': { pages: [3, 2], rate: 20, then: 'drained', expected: 'drained' },
  'drain-page-at-once-continued': { pages: [2, 2, 1], rate: 1, then: 'drained', startsPerRun: 3, expected: 'drained' },
  'drain-page-at-once-paused-again': { pages: [2], rate: 5, then: 'paused', expected: 'paused' },
  // An ordered subscription's held deliveries, started with their events' ordering so their runs go through the gate (DRAIN_ORDERED_RUNS).
  'drain-ordered-runs': { pages: [3], rate: 20, then: 'drained', ordered: true, expected: 'drained' },
  // Drained runs started with the event workflows' 30 s task timeout (DRAINED_TASK_TIMEOUT).
  'drain-task-timeout': { pages: [2, 1], rate: 20, then: 'drained', ordered: true, expected: 'drained' },
  // A page's first run waits for the drain's go, given once every run of the page has started (DRAIN_PAGE_GO).
  'drain-page-go': { pages: [3, 2], rate: 20, then: 'drained', expected: 'drained' },
};

/** The subscription a drain scenario drains. */
export const drainedSubscription = (name: string): string => `sub_history_${name}`;

/** The id a drain scenario is recorded with. */
export const recordedDrainWorkflowId = (name: string): string => drainWorkflowId(drainedSubscription(name));

import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { yieldPlace } from '../../../src/http/load-shedding';
import { ownerTurns } from '../../../src/http/owner-turns';

/** A request of `owner` through the gate: `started` once its handler may run, `finish()` answers it. */
function send(gate: ReturnType<typeof ownerTurns>, owner: string | undefined) {
  const res = new EventEmitter();
  const req = { owner } as unknown as Request;
  const call = { res: res as unknown as Response, started: false, finish: () => res.emit('finish'), close: () => res.emit('close') };
  gate(req, call.res, () => {
    call.started = true;
  });
  return call;
}

function setup(perOwner = 2) {
  const clock = { ms: 0 };
  const gate = ownerTurns({ perOwner, ownerOf: (req) => (req as unknown as { owner?: string }).owner, contendedWithinMs: 2000, now: () => clock.ms });
  return { gate, clock };
}

describe('ownerTurns', () => {
  it('never holds an owner alone, however many of its requests run at once', () => {
    const { gate } = setup();
    const calls = Array.from({ length: 20 }, () => send(gate, 'a'));
    expect(calls.every((c) => c.started)).toBe(true);
  });

  it('while another owner sends, runs an owner\'s requests two at a time in arrival order, and never holds the other', () => {
    const { gate, clock } = setup();
    const b1 = send(gate, 'b');
    clock.ms = 100;
    const a = Array.from({ length: 5 }, () => send(gate, 'a'));
    expect(a.map((c) => c.started)).toEqual([true, true, false, false, false]);
    const b2 = send(gate, 'b');
    expect([b1.started, b2.started]).toEqual([true, true]);
    a[1]!.finish();
    expect(a.map((c) => c.started)).toEqual([true, true, true, false, false]);
    // A client gone counts like an answer, and once only.
    a[0]!.close();
    a[0]!.finish();
    expect(a.map((c) => c.started)).toEqual([true, true, true, true, false]);
  });

  it('lets every waiting request go once the other owner has been quiet for the window', () => {
    const { gate, clock } = setup();
    send(gate, 'b');
    const a = Array.from({ length: 6 }, () => send(gate, 'a'));
    expect(a.filter((c) => c.started)).toHaveLength(2);
    clock.ms = 2001;
    a[0]!.finish();
    expect(a.every((c) => c.started)).toBe(true);
  });

  it('passes requests with no owner and holds nobody when the bound is 0', () => {
    const { gate } = setup(0);
    send(gate, 'b');
    expect(Array.from({ length: 5 }, () => send(gate, 'a')).every((c) => c.started)).toBe(true);
    const { gate: bounded } = setup(1);
    send(bounded, 'b');
    send(bounded, 'a');
    expect(send(bounded, undefined).started).toBe(true);
  });

  it('gives a long poll\'s turn to the next request while it sleeps and takes it back after', () => {
    const { gate } = setup(1);
    send(gate, 'b');
    const poll = send(gate, 'a');
    const next = send(gate, 'a');
    expect(next.started).toBe(false);
    const retake = yieldPlace(poll.res);
    expect(next.started).toBe(true);
    expect(retake()).toBe(true);
    const third = send(gate, 'a');
    next.finish();
    // The poll holds its turn again: the third still waits until it answers.
    expect(third.started).toBe(false);
    poll.finish();
    expect(third.started).toBe(true);
  });

  it('takes no turn back for a long poll whose client left while it slept', () => {
    const { gate } = setup(1);
    send(gate, 'b');
    const poll = send(gate, 'a');
    const retake = yieldPlace(poll.res);
    poll.close();
    expect(retake()).toBe(false);
    // The owner's turn is free: its next request starts.
    expect(send(gate, 'a').started).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { IngestQueueOptions } from './ingest-queue';
import { FirstLists, IngestQueue } from './ingest-queue';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A clock that moves only when the test says work took time, so slices are decided the same on any machine. */
function fakeClock(): { now: () => number; spend: (ms: number) => void } {
  let t = 0;
  return { now: () => t, spend: (ms) => (t += ms) };
}

/**
 * A queue on a fake clock whose work items each take 1 ms, and one turn of the loop: the queue's slice, then
 * `elsewhere` ms of other work (requests, the poll phase); `turnWith` says how many items the slice ran.
 */
function slicing(options: Omit<Partial<IngestQueueOptions>, 'now'>) {
  const clock = fakeClock();
  const queue = new IngestQueue(() => undefined, { ...options, now: clock.now });
  let done = 0;
  const push = (n: number): void => {
    for (let i = 0; i < n; i++)
      queue.push(() => {
        clock.spend(1);
        done += 1;
      });
  };
  const turnWith = async (elsewhere: number): Promise<number> => {
    const before = done;
    await turn();
    clock.spend(elsewhere);
    return done - before;
  };
  return { clock, queue, push, turnWith };
}

describe('IngestQueue', () => {
  it('runs work in the order it came, later, in slices that end once the budget is spent', async () => {
    const clock = fakeClock();
    const done: number[] = [];
    const queue = new IngestQueue(() => undefined, { sliceMs: 5, calmSliceMs: 50, maxSliceMs: 50, now: clock.now });
    for (let i = 0; i < 10; i++)
      queue.push(() => {
        clock.spend(3);
        done.push(i);
      });
    // Nothing runs inside push: the watch callback that hands work over returns at once.
    expect(done).toEqual([]);
    expect(queue.pending).toBe(10);
    const perTurn: number[] = [];
    while (queue.pending > 0) {
      const before = done.length;
      await turn();
      perTurn.push(done.length - before);
    }
    // 3 ms each against a 5 ms budget, nothing else on the thread: a slice ends after its second item.
    expect(perTurn).toEqual([2, 2, 2, 2, 2]);
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a slice gets as long as the rest of the thread had since the last one, up to the maximum; an emptied queue starts short', async () => {
    const { clock, queue, push, turnWith } = slicing({ sliceMs: 5, calmSliceMs: 30, maxSliceMs: 30 });
    push(200);
    // The first slice of a burst is short; then each is as long as what ran elsewhere, at least 5, at most 30 ms.
    expect(await turnWith(12)).toBe(5);
    expect(await turnWith(2)).toBe(12);
    expect(await turnWith(100)).toBe(5);
    expect(await turnWith(0)).toBe(30);
    while (queue.pending > 0) await turnWith(0);
    // Emptied: a new burst starts short whatever ran meanwhile.
    clock.spend(100);
    push(20);
    expect(await turnWith(0)).toBe(5);
  });

  it('while the queue keeps emptying a slice is at most the calm cap; once it has held work for a second, the long one', async () => {
    const { queue, push, turnWith } = slicing({ sliceMs: 5, calmSliceMs: 20, maxSliceMs: 50, behindAfterMs: 1_000 });
    push(5_000);
    expect(await turnWith(100)).toBe(5);
    // 100 ms elsewhere (a long GC): the next slice gets the calm cap, not 50 ms.
    expect(await turnWith(100)).toBe(20);
    // Held work for over a second without emptying: behind, and the slices grow to the long cap.
    for (let i = 0; i < 8; i++) await turnWith(100);
    expect(await turnWith(100)).toBe(50);
    while (queue.pending > 0) await turnWith(0);
    // Emptied: calm again.
    push(200);
    expect(await turnWith(100)).toBe(5);
    expect(await turnWith(100)).toBe(20);
  });

  it('work added while a slice runs goes after what was waiting', async () => {
    const done: string[] = [];
    const queue = new IngestQueue(() => undefined, { sliceMs: 50 });
    queue.push(() => {
      done.push('a');
      queue.push(() => done.push('c'));
    });
    queue.push(() => done.push('b'));
    while (queue.pending > 0) await turn();
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it('work pushed by a task run childrenFirst runs right after it, before what was waiting, in the order pushed', async () => {
    const done: string[] = [];
    const queue = new IngestQueue(() => undefined, { sliceMs: 50 });
    // A list page parsed in the queue, its objects pushed as it hands them over; a watch line queued before it and one after.
    queue.push(() => done.push('line 1'));
    queue.push(() => {
      done.push('page');
      for (const o of ['a', 'b', 'c']) queue.push(() => done.push(o));
    }, true);
    queue.push(() => {
      done.push('line 2');
      queue.push(() => done.push('line 2 applied'));
    });
    expect(queue.pending).toBe(3);
    while (queue.pending > 0) await turn();
    // A task not run childrenFirst still has what it pushes go behind what was waiting (here: nothing).
    expect(done).toEqual(['line 1', 'page', 'a', 'b', 'c', 'line 2', 'line 2 applied']);
  });

  it('children run first across slices, and pending counts them', async () => {
    const { clock, queue, turnWith } = slicing({ sliceMs: 5, calmSliceMs: 5, maxSliceMs: 5 });
    const done: string[] = [];
    queue.push(() => {
      for (let i = 0; i < 8; i++)
        queue.push(() => {
          clock.spend(1);
          done.push(`child ${i}`);
        });
    }, true);
    queue.push(() => done.push('after'));
    await turnWith(0);
    // The slice's budget ended among the children: they stay ahead of what was waiting, and are counted.
    expect(done).toEqual(['child 0', 'child 1', 'child 2', 'child 3', 'child 4']);
    expect(queue.pending).toBe(4);
    while (queue.pending > 0) await turnWith(0);
    expect(done.slice(5)).toEqual(['child 5', 'child 6', 'child 7', 'after']);
  });

  it('a childrenFirst task that throws is reported, and what it pushed before still runs first', () => {
    const errors: unknown[] = [];
    const done: string[] = [];
    const queue = new IngestQueue((e) => errors.push(e));
    queue.push(() => {
      queue.push(() => done.push('pushed before the throw'));
      throw new Error('not JSON');
    }, true);
    queue.push(() => done.push('waiting'));
    queue.drain();
    expect(done).toEqual(['pushed before the throw', 'waiting']);
    expect(String(errors[0])).toContain('not JSON');
  });

  it('a marker made while a childrenFirst task runs is behind its children and everything waiting', () => {
    const done: string[] = [];
    const queue = new IngestQueue(() => undefined);
    let reached: () => boolean = () => false;
    queue.push(() => {
      queue.push(() => done.push('child'));
      reached = queue.marker(() => done.push('mark'));
    }, true);
    queue.push(() => done.push('waiting'));
    queue.drain();
    expect(done).toEqual(['child', 'waiting', 'mark']);
    expect(reached()).toBe(true);
  });

  it('reports what throws and goes on; drain runs everything at once', () => {
    const errors: unknown[] = [];
    const done: number[] = [];
    const queue = new IngestQueue((e) => errors.push(e));
    queue.push(() => done.push(1));
    queue.push(() => {
      throw new Error('bad object');
    });
    queue.push(() => done.push(3));
    queue.drain();
    expect(done).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('bad object');
    expect(queue.pending).toBe(0);
  });

  it('a marker is reached once everything pushed before it ran, while work pushed after it still waits', async () => {
    const { queue, push } = slicing({ sliceMs: 5, calmSliceMs: 5, maxSliceMs: 5 });
    const seen: number[] = [];
    push(12); // a list's objects: 12 ms of work, more than two slices
    const reached = queue.marker(() => seen.push(queue.pending));
    push(40); // watch events queued behind it
    expect(reached()).toBe(false);
    let turns = 0;
    while (!reached()) {
      await turn();
      turns += 1;
    }
    // It took the slices the list needed, not the events' too, and said so while the events still waited.
    expect(turns).toBe(3);
    expect(seen).toEqual([40]);
    expect(queue.pending).toBeGreaterThan(0);
    while (queue.pending > 0) await turn();
    expect(reached()).toBe(true);
    expect(seen).toEqual([40]);
  });
});

describe('FirstLists (readiness: the first lists applied)', () => {
  /** A queue whose work is named, run only when the test drains it or runs it item by item. */
  function named() {
    const queue = new IngestQueue(() => undefined);
    const applied: string[] = [];
    const push = (...names: string[]): void => {
      for (const name of names) queue.push(() => applied.push(name));
    };
    return { queue, applied, push };
  }

  it('is applied once what was queued when every watcher had listed has run, not the events queued after it', () => {
    const { queue, applied, push } = named();
    const atMark: string[][] = [];
    const first = new FirstLists(queue, () => atMark.push([...applied]));
    push('a: list');
    expect(first.applied(false, 2)).toBe(false); // b has not listed
    push('b: list');
    expect(first.applied(true, 2)).toBe(false); // the mark goes behind b's list
    push('a: event', 'b: event');
    expect(first.applied(true, 2)).toBe(false); // asked again: no second mark
    queue.drain();
    expect(atMark).toEqual([['a: list', 'b: list']]);
    expect(first.applied(true, 2)).toBe(true);
    expect(applied).toEqual(['a: list', 'b: list', 'a: event', 'b: event']);
  });

  it('answers while the events queued after the mark still wait', async () => {
    const { queue, push } = slicing({ sliceMs: 5, calmSliceMs: 5, maxSliceMs: 5 });
    const first = new FirstLists(queue, () => undefined);
    push(8); // the lists: 8 ms of work
    expect(first.applied(true, 1)).toBe(false);
    push(100); // 100 ms of events behind the mark
    let turns = 0;
    while (!first.applied(true, 1)) {
      await turn();
      turns += 1;
    }
    expect(turns).toBe(2);
    expect(queue.pending).toBeGreaterThan(90);
  });

  it('does not count a watcher added after its mark: that watcher’s list is behind it', () => {
    const { queue, push } = named();
    const first = new FirstLists(queue, () => undefined);
    push('control plane: list (finds a member)');
    expect(first.applied(true, 1)).toBe(false);
    // The control plane's list, applied, makes the member's watcher; the member lists behind the mark.
    queue.drain();
    push('member: list');
    expect(first.applied(true, 2)).toBe(false);
    queue.drain();
    expect(first.applied(true, 2)).toBe(true);
  });

  it('stays applied once applied (a cluster added later lists as the process runs)', () => {
    const { queue } = named();
    const first = new FirstLists(queue, () => undefined);
    expect(first.applied(true, 1)).toBe(false);
    queue.drain();
    expect(first.applied(true, 1)).toBe(true);
    expect(first.applied(false, 2)).toBe(true);
  });
});

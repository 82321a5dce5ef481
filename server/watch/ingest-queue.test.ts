import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { IngestQueue } from './ingest-queue';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Work that holds the thread for at least `ms`. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('IngestQueue', () => {
  it('runs work in the order it came, later, in slices that end once the budget is spent', async () => {
    const done: number[] = [];
    const queue = new IngestQueue(() => undefined, 5);
    for (let i = 0; i < 10; i++)
      queue.push(() => {
        busy(3);
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
    // 3 ms each against a 5 ms budget: a slice ends after the second at the latest (after the first on a busy machine).
    expect(perTurn.every((n) => n <= 2)).toBe(true);
    expect(perTurn.length).toBeGreaterThanOrEqual(5);
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a queue that has not emptied for a while catches up in longer slices, and goes back to short ones once empty', async () => {
    const queue = new IngestQueue(() => undefined, 5, 20, 1000);
    const perTurn = async (n: number): Promise<number[]> => {
      let done = 0;
      for (let i = 0; i < n; i++)
        queue.push(() => {
          busy(3);
          done += 1;
        });
      const turns: number[] = [];
      while (queue.pending > 0) {
        const before = done;
        await turn();
        turns.push(done - before);
      }
      return turns;
    };
    const first = await perTurn(20);
    // Short slices (two at most) until the queue is 20 ms behind, then one long slice takes the rest.
    expect(first[0]).toBeLessThanOrEqual(2);
    expect(Math.max(...first)).toBeGreaterThan(2);
    // Emptied: a new burst starts with short slices again.
    expect((await perTurn(4))[0]).toBeLessThanOrEqual(2);
  });

  it('work added while a slice runs goes after what was waiting', async () => {
    const done: string[] = [];
    const queue = new IngestQueue(() => undefined, 50);
    queue.push(() => {
      done.push('a');
      queue.push(() => done.push('c'));
    });
    queue.push(() => done.push('b'));
    while (queue.pending > 0) await turn();
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it('reports what throws and goes on; drain runs everything at once', () => {
    const errors: unknown[] = [];
    const done: number[] = [];
    const queue = new IngestQueue((e) => errors.push(e), 5);
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
});

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CompactionWindows, HEAP_GROWING_PERCENT, startCompactionWindows, windowPolicy } from './v8-favor';

const MiB = 2 ** 20;
const fragmented = { committed: 350 * MiB, used: 165 * MiB };
const compact = { committed: 185 * MiB, used: 165 * MiB };
const between = { committed: 230 * MiB, used: 165 * MiB };

function windows() {
  const flags: string[] = [];
  const closed: boolean[] = [];
  let now = 0;
  const w = new CompactionWindows(
    (f) => void flags.push(f),
    () => now,
    (compact) => void closed.push(compact),
  );
  return { w, flags, closed, at: (seconds: number) => void (now = seconds * 1000) };
}

describe('CompactionWindows', () => {
  it('the policy: fragmented opens, compact closes, and what lies between does neither', () => {
    expect(windowPolicy.enterAbove(fragmented)).toBe(true);
    expect(windowPolicy.compact(fragmented)).toBe(false);
    expect(windowPolicy.enterAbove(compact)).toBe(false);
    expect(windowPolicy.compact(compact)).toBe(true);
    expect(windowPolicy.enterAbove(between)).toBe(false);
    expect(windowPolicy.compact(between)).toBe(false);
    // The bounds: 1.3 × live + 16 MiB opens, 1.15 × live + 8 MiB closes (165 MiB live: 230.5 and 197.75 MiB).
    expect(windowPolicy.enterAbove({ committed: 231 * MiB, used: 165 * MiB })).toBe(true);
    expect(windowPolicy.compact({ committed: 197.5 * MiB, used: 165 * MiB })).toBe(true);
    expect(windowPolicy.compact({ committed: 198 * MiB, used: 165 * MiB })).toBe(false);
  });

  it('opens after a fragmented full collection and closes once compact', () => {
    const { w, flags, closed, at } = windows();
    w.afterFullCollection(compact);
    expect(flags).toEqual([]);
    at(10);
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(true);
    at(20);
    w.afterFullCollection(between);
    expect(flags).toEqual(['--optimize-for-size']);
    at(30);
    w.afterFullCollection(compact);
    expect(w.open).toBe(false);
    expect(flags).toEqual(['--optimize-for-size', '--no-optimize-for-size']);
    expect(closed).toEqual([true]);
  });

  it('closes after a minute even when not compact, and then waits four minutes before the next', () => {
    const { w, flags, closed, at } = windows();
    w.afterFullCollection(fragmented);
    at(59);
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(true);
    at(60);
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(false);
    at(60 + 239);
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(false);
    at(60 + 240);
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(true);
    expect(w.opened).toBe(2);
    expect(flags).toEqual(['--optimize-for-size', '--no-optimize-for-size', '--optimize-for-size']);
    expect(closed).toEqual([false]);
  });

  it('waits twice as long after each window that did not compact, up to an hour, and two minutes after one that did', () => {
    const { w, at } = windows();
    let t = 0;
    // Windows that run out their minute: the next may open 4, then 8, 16, 32, 60, 60 minutes after each closed.
    for (const minutes of [4, 8, 16, 32, 60, 60]) {
      w.afterFullCollection(fragmented);
      expect(w.open).toBe(true);
      at((t += 60));
      w.afterFullCollection(fragmented);
      expect(w.open).toBe(false);
      at((t += minutes * 60 - 1));
      w.afterFullCollection(fragmented);
      expect(w.open).toBe(false);
      at((t += 1));
    }
    w.afterFullCollection(fragmented);
    at((t += 10));
    w.afterFullCollection(compact);
    expect(w.open).toBe(false);
    at((t += 119));
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(false);
    at((t += 1));
    w.afterFullCollection(fragmented);
    expect(w.open).toBe(true);
  });

  it('close() leaves V8 in its default mode, once', () => {
    const { w, flags } = windows();
    w.close();
    w.afterFullCollection(fragmented);
    w.close();
    w.close();
    expect(flags).toEqual(['--optimize-for-size', '--no-optimize-for-size']);
  });

  it('memory: the old generation kept to 20% past its live size from the start of the windows, and let go with them; speed: nothing', () => {
    const flags: string[] = [];
    const stop = startCompactionWindows('memory', undefined, (f) => void flags.push(f));
    expect(flags).toEqual(['--heap-growing-percent=20']);
    stop();
    expect(flags).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=0']);
    const none: string[] = [];
    startCompactionWindows('speed', undefined, (f) => void none.push(f))();
    startCompactionWindows(undefined, undefined, (f) => void none.push(f))();
    expect(none).toEqual([]);
  });

  it('V8 on the Node running this reads --heap-growing-percent while it runs: full collections come sooner, the old space stays smaller', () => {
    // A live set, then garbage that outlives the young generation (a ring of 1,000,000 small objects, 200,000 of them
    // replaced every 5 ms): with the flag set after start, V8 collects the old generation more often and commits less
    // for it (Node 20, 22, 24: 4–5 full collections and 826–878 MiB at most without it, 18–26 and 257–399 with it).
    const script = `
      const v8 = require('node:v8');
      const { PerformanceObserver, constants } = require('node:perf_hooks');
      let majors = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; }).observe({ entryTypes: ['gc'] });
      const live = [];
      for (let i = 0; i < 500000; i++) live.push({ i, s: 'x' + i });
      gc();
      if (process.argv[1]) v8.setFlagsFromString('--heap-growing-percent=' + process.argv[1]);
      const ring = new Array(1000000);
      let k = 0, rounds = 0, most = 0;
      const timer = setInterval(() => {
        for (let i = 0; i < 200000; i++) ring[k++ % ring.length] = { k, pair: [k, k + 1] };
        most = Math.max(most, v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space').space_size);
        if (++rounds < 100) return;
        clearInterval(timer);
        console.log(JSON.stringify({ majors, mostMiB: most / 2 ** 20, live: live.length }));
      }, 5);`;
    const run = (...args: string[]) => {
      const child = spawnSync(process.execPath, ['--expose-gc', '-e', script, ...args], { encoding: 'utf8' });
      expect(child.stderr).toBe('');
      return JSON.parse(child.stdout) as { majors: number; mostMiB: number; live: number };
    };
    const speed = run();
    const memory = run(String(HEAP_GROWING_PERCENT));
    expect(memory.live).toBe(500000);
    expect(memory.majors).toBeGreaterThan(2 * speed.majors);
    expect(memory.mostMiB).toBeLessThan(0.7 * speed.mostMiB);
  });

  it("the Node running this lets V8's flag be set and unset while it runs (with V8's flags frozen, setting one aborts)", () => {
    // What a window does to a live process, on a heap with garbage to collect and survivors to move: if a Node
    // release froze V8's flags after start, this child would abort instead of printing its figures.
    const script = `
      const v8 = require('node:v8');
      const kept = [];
      for (let round = 0; round < 3; round++) {
        v8.setFlagsFromString('--optimize-for-size');
        for (let i = 0; i < 200000; i++) kept.push({ i, s: 'x' + i });
        kept.splice(0, kept.length >> 1);
        gc();
        v8.setFlagsFromString('--no-optimize-for-size');
        gc();
      }
      console.log(kept.length);`;
    const child = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('175000');
  });
});

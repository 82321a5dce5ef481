import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Reachability } from './reachability';

const t0 = Date.parse('2026-11-24T00:00:00Z');
const refused = { answered: false, refused: true, message: 'connect ECONNREFUSED' };
const answered500 = { answered: true, refused: false, message: '500 Internal Server Error' };

describe('Reachability', () => {
  it('the error rate is failed ÷ all requests of the window, kept as a count (any order of answers, failures, times)', () => {
    const step = fc.record({ dt: fc.integer({ min: 0, max: 40_000 }), ok: fc.boolean(), readAt: fc.integer({ min: 0, max: 70_000 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        // Answered failures never add up to an outage here (which would clear the window: the next test).
        const r = new Reachability({ unreachableAfterMs: 10_000, failingAfterMs: Number.POSITIVE_INFINITY, windowMs: 60_000 });
        const seen: { at: number; ok: boolean }[] = [];
        let now = t0;
        for (const s of steps) {
          now += s.dt;
          if (s.ok) r.answered(now, 'request');
          else r.failed(now, answered500);
          seen.push({ at: now, ok: s.ok });
          // A read at a later instant prunes too; what it answers must match counting the window by hand.
          const at = now + s.readAt;
          const window = seen.filter((o) => o.at >= at - 60_000);
          const expected = window.length === 0 ? 0 : window.filter((o) => !o.ok).length / window.length;
          if (r.errorRate(at) !== expected) return false;
          now = Math.max(now, at);
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('the first answer after an outage starts the error rate over: the outage’s failures are not a degraded cluster’s', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    for (let i = 1; i <= 5; i++) r.failed(t0 + i * 8_000, answered500);
    expect(r.errorRate(t0 + 40_000)).toBeCloseTo(5 / 6);
    expect(r.verdict(t0 + 40_000)).toBe('unreachable');
    r.answered(t0 + 41_000, 'request');
    expect(r.errorRate(t0 + 41_000)).toBe(0);
    r.failed(t0 + 42_000, answered500);
    expect(r.errorRate(t0 + 42_000)).toBe(0.5);
  });

  it('a refused connection is unreachable at once, and a stream cut reported after it does not undo that', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    // One informer's reconnect is refused; another informer's open stream is reported cut a moment later.
    r.failed(t0 + 5, refused);
    r.answered(t0 + 7, 'cut');
    expect(r.verdict(t0 + 8)).toBe('unreachable');
    expect(r.lastServedAt).toBe(t0 + 7);
    // Only an answer ends it.
    r.answered(t0 + 20_000, 'request');
    expect(r.verdict(t0 + 20_001)).toBe('reachable');
  });

  it('a liveness probe: no answer starts the silence rule, an answer ends it, neither counts in the error rate', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    // A partition: the probe of a quiet cluster times out 20 s after the last event.
    r.probeFailed(t0 + 20_000, false, 'no answer to a liveness probe: timed out');
    expect(r.verdict(t0 + 29_999)).toBe('reachable');
    expect(r.verdict(t0 + 30_000)).toBe('unreachable');
    expect(r.lastError).toBe('no answer to a liveness probe: timed out');
    expect(r.errorRate(t0 + 30_000)).toBe(0);
    // The partition ends: the next probe is answered, and the outage began at the last answer.
    expect(r.lastServedAt).toBe(t0);
    r.probeAnswered(t0 + 50_000, true);
    expect(r.verdict(t0 + 50_001)).toBe('reachable');
    expect(r.lastServedAt).toBe(t0 + 50_000);
    expect(r.lastAnsweredAt).toBe(t0 + 50_000);
  });

  it('a probe that is refused is unreachable at once; a probe answered does not end a refusal or a run of 5xx', () => {
    const refusedProbe = new Reachability();
    refusedProbe.answered(t0, 'request');
    refusedProbe.probeFailed(t0 + 10_000, true, 'connect ECONNREFUSED');
    expect(refusedProbe.verdict(t0 + 10_000)).toBe('unreachable');

    const watchRefused = new Reachability();
    watchRefused.answered(t0, 'request');
    watchRefused.failed(t0 + 1_000, refused);
    watchRefused.probeAnswered(t0 + 2_000, true);
    expect(watchRefused.verdict(t0 + 2_001)).toBe('unreachable');

    // /version answers while the storage behind every other request fails: the run goes on, and the outage is dated
    // from the last answer that served data, not from the probe.
    const failing = new Reachability();
    failing.answered(t0, 'request');
    failing.failed(t0 + 1_000, answered500);
    failing.probeAnswered(t0 + 20_000, true);
    failing.failed(t0 + 25_000, answered500);
    expect(failing.verdict(t0 + 31_000)).toBe('unreachable');
    expect(failing.lastServedAt).toBe(t0);
    expect(failing.errorRate(t0 + 31_000)).toBe(2 / 3);
  });

  it('a probe answered with an error status is an answer, not service', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.probeFailed(t0 + 20_000, false, 'timed out');
    r.probeAnswered(t0 + 25_000, false);
    expect(r.verdict(t0 + 40_000)).toBe('reachable');
    expect(r.lastAnsweredAt).toBe(t0 + 25_000);
    expect(r.lastServedAt).toBe(t0);
  });

  it('a cut alone is routine: reachable, and nothing counted as failed', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.answered(t0 + 30_000, 'cut');
    expect(r.verdict(t0 + 30_001)).toBe('reachable');
    expect(r.errorRate(t0 + 30_001)).toBe(0);
  });

  it('a cut proves the connection until then: silence is counted from after it', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.failed(t0 + 1_000, { answered: false, refused: false, message: 'timeout' });
    r.answered(t0 + 9_000, 'cut');
    expect(r.verdict(t0 + 15_000)).toBe('degraded');
    r.failed(t0 + 15_000, { answered: false, refused: false, message: 'timeout' });
    expect(r.verdict(t0 + 24_999)).toBe('degraded');
    expect(r.verdict(t0 + 25_000)).toBe('unreachable');
  });

  it('answers that all fail for 30 s are unreachable; an answer with an error clears a refusal', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.failed(t0 + 1_000, refused);
    expect(r.verdict(t0 + 1_001)).toBe('unreachable');
    r.failed(t0 + 2_000, answered500);
    expect(r.verdict(t0 + 2_001)).toBe('degraded');
    // 30 s of answers that all failed, counted from the first answer (not from the refusal).
    r.failed(t0 + 31_000, answered500);
    expect(r.verdict(t0 + 31_999)).toBe('degraded');
    expect(r.verdict(t0 + 32_000)).toBe('unreachable');
  });
});

describe('Reachability after an outage', () => {
  it('a cluster back from refusing connections whose first answers are 5xx is degraded, not unreachable again', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.failed(t0 + 1_000, refused);
    for (let s = 2; s < 28; s += 2) r.failed(t0 + s * 1_000, refused);
    expect(r.verdict(t0 + 28_000)).toBe('unreachable');
    // Back: it answers, first with an error, then a success 4 s later.
    r.failed(t0 + 29_000, answered500);
    expect(r.verdict(t0 + 29_001)).toBe('degraded');
    expect(r.verdict(t0 + 32_000)).toBe('degraded');
    r.answered(t0 + 33_000, 'request');
    expect(r.verdict(t0 + 33_001)).toBe('degraded');
  });
});

describe('Reachability through a proxy', () => {
  it('a proxy answering 503 that it cannot reach the member is a refusal: unreachable at once', () => {
    const r = new Reachability();
    r.answered(t0, 'request');
    r.failed(t0 + 1_000, {
      answered: true,
      refused: true,
      message: 'error trying to reach service: dial tcp: connect: connection refused',
    });
    expect(r.verdict(t0 + 1_001)).toBe('unreachable');
    // A timeout meanwhile does not make it reachable again; an answer does (the outage's failures are its own,
    // not a degraded cluster's).
    r.failed(t0 + 5_000, { answered: false, refused: false, message: 'timeout' });
    expect(r.verdict(t0 + 5_001)).toBe('unreachable');
    r.answered(t0 + 9_000, 'request');
    expect(r.verdict(t0 + 9_001)).toBe('reachable');
  });
});

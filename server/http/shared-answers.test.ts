import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonPrepared, preparedBody } from './row-json';
import { SharedAnswers } from './shared-answers';

/** A clock and a bus sequence the test moves, and an answer maker that counts its calls. */
function rig(options: { maxAgeMs?: number; maxEntries?: number } = {}) {
  const state = { now: 1_000, sequence: 0, made: 0 };
  const answers = new SharedAnswers(() => state.sequence, { ...options, now: () => state.now });
  const make =
    (value: unknown, status = 200) =>
    (): Response => {
      state.made += 1;
      return status === 200 ? jsonPrepared({ value, made: state.made }) : Response.json({ error: { code: 'bad_request' } }, { status });
    };
  const body = (r: Response): string => (preparedBody(r)?.bytes() ?? Buffer.alloc(0)).toString('utf8');
  return { state, answers, make, body };
}

describe('SharedAnswers', () => {
  it('gives an identical read the same bytes until the bus sends a message', () => {
    const { state, answers, make, body } = rig();
    const first = answers.answer('k', make('a'));
    const second = answers.answer('k', make('a'));
    expect(state.made).toBe(1);
    expect(body(second)).toBe(body(first));
    // The very bytes: the fast path's gzip of them is made once too.
    expect(preparedBody(second)).toBe(preparedBody(first));
    expect(answers.counts).toEqual({ made: 1, shared: 1 });
    state.sequence += 1;
    const third = answers.answer('k', make('a'));
    expect(state.made).toBe(2);
    expect(body(third)).toBe('{"value":"a","made":2}');
  });

  it('a shared answer whose gzip was made (its plain bytes let go) still reads as the same JSON', async () => {
    const { state, answers, make, body } = rig();
    const first = answers.answer('k', make('a'));
    await preparedBody(first)?.gzip();
    const second = answers.answer('k', make('a'));
    expect(state.made).toBe(1);
    expect(body(second)).toBe('{"value":"a","made":1}');
  });

  it('makes a new answer once the last is maxAgeMs old, whether or not the bus said anything', () => {
    const { state, answers, make } = rig({ maxAgeMs: 250 });
    answers.answer('k', make('a'));
    state.now += 249;
    answers.answer('k', make('a'));
    expect(state.made).toBe(1);
    state.now += 1;
    answers.answer('k', make('a'));
    expect(state.made).toBe(2);
  });

  it('keeps answers apart by key, and at most maxEntries of them', () => {
    const { state, answers, make, body } = rig({ maxEntries: 2 });
    expect(body(answers.answer('a', make('a')))).toContain('"a"');
    expect(body(answers.answer('b', make('b')))).toContain('"b"');
    expect(body(answers.answer('a', make('x')))).toContain('"a"');
    expect(state.made).toBe(2);
    answers.answer('c', make('c'));
    expect(answers.size).toBe(2);
    // 'a' was made first, so it went.
    answers.answer('a', make('a'));
    expect(state.made).toBe(4);
  });

  it('never shares an error: each request makes its own', () => {
    const { state, answers, make } = rig();
    expect(answers.answer('k', make(null, 400)).status).toBe(400);
    expect(answers.answer('k', make(null, 400)).status).toBe(400);
    expect(state.made).toBe(2);
    expect(answers.size).toBe(0);
    expect(answers.counts).toEqual({ made: 0, shared: 0 });
  });

  describe('letting go of answers past sharing', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("drops every answer made before the bus's message at the next read", () => {
      const { state, answers, make } = rig();
      answers.answer('a', make('a'));
      answers.answer('b', make('b'));
      expect(answers.size).toBe(2);
      state.sequence += 1;
      answers.answer('c', make('c'));
      expect(answers.size).toBe(1);
    });

    it('drops the answers maxAgeMs old at the next read, keeping the younger ones', () => {
      const { state, answers, make } = rig({ maxAgeMs: 250 });
      answers.answer('a', make('a'));
      state.now += 100;
      answers.answer('b', make('b'));
      state.now += 150;
      // a is 250 ms old, b 150: a goes, b is still shared.
      answers.answer('c', make('c'));
      expect(answers.size).toBe(2);
      answers.answer('b', make('b'));
      expect(state.made).toBe(3);
    });

    it('drops them maxAgeMs later when no read comes', () => {
      vi.useFakeTimers();
      const { state, answers, make } = rig({ maxAgeMs: 250 });
      answers.answer('a', make('a'));
      state.now += 100;
      answers.answer('b', make('b'));
      state.now += 150;
      vi.advanceTimersByTime(250);
      // The sweep at 250 ms let a go; b, made 100 ms later, goes at the next one.
      expect(answers.size).toBe(1);
      state.now += 250;
      vi.advanceTimersByTime(250);
      expect(answers.size).toBe(0);
      // Nothing kept, nothing scheduled.
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});

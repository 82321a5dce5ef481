import { describe, expect, it } from 'vitest';
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
  const body = (r: Response): string => (preparedBody(r) ?? Buffer.alloc(0)).toString('utf8');
  return { state, answers, make, body };
}

describe('SharedAnswers', () => {
  it('gives an identical read the same bytes until the bus sends a message', () => {
    const { state, answers, make, body } = rig();
    const first = answers.answer('k', make('a'));
    const second = answers.answer('k', make('a'));
    expect(state.made).toBe(1);
    expect(body(second)).toBe(body(first));
    // The very buffer: the fast path's gzip of it is made once too.
    expect(preparedBody(second)).toBe(preparedBody(first));
    expect(answers.counts).toEqual({ made: 1, shared: 1 });
    state.sequence += 1;
    const third = answers.answer('k', make('a'));
    expect(state.made).toBe(2);
    expect(body(third)).toBe('{"value":"a","made":2}');
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
});

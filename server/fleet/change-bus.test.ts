import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamMessage } from '@/lib/api';
import { ChangeBus } from './change-bus';

describe('ChangeBus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces changed ids into one message per 250 ms, each id once', () => {
    const bus = new ChangeBus();
    const got: StreamMessage[] = [];
    bus.subscribe((m) => got.push(m));
    bus.changed(['a', 'b']);
    bus.changed(['b', 'c']);
    expect(got).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(got).toEqual([{ type: 'changed', ids: ['a', 'b', 'c'] }]);
  });

  it('a relist bigger than one message sends the first 500 ids and says there were more', () => {
    const bus = new ChangeBus();
    const got: StreamMessage[] = [];
    bus.subscribe((m) => got.push(m));
    bus.changed(Array.from({ length: 2000 }, (_, i) => `id-${i}`));
    vi.advanceTimersByTime(250);
    expect(got).toHaveLength(1);
    const message = got[0];
    expect(message?.type === 'changed' && message.ids.length).toBe(500);
    expect(message?.type === 'changed' && message.truncated).toBe(true);
  });

  it('keeps nothing while nobody listens, and sends cluster states at once', () => {
    const bus = new ChangeBus();
    bus.changed(['early']);
    const got: StreamMessage[] = [];
    const unsubscribe = bus.subscribe((m) => got.push(m));
    bus.cluster({ name: 'c', state: 'unreachable' } as never);
    expect(got).toEqual([{ type: 'cluster', cluster: { name: 'c', state: 'unreachable' } }]);
    vi.advanceTimersByTime(1000);
    expect(got).toHaveLength(1);
    unsubscribe();
    expect(bus.subscriberCount).toBe(0);
  });
});

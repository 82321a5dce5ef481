import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '@/sim/api/api-server';
import type { Kill } from './judge';
import { inFlightSecond, servedRangesOf } from './judge';

const killAt = Date.parse('2026-11-28T09:13:15.218Z');
const kill: Kill = {
  at: killAt,
  clusters: () => true,
  rvAt: new Map([['prod', 4100]]),
  rvBefore: new Map([['prod', 4050]]),
};
const path = '/apis/autoscaling/v2/horizontalpodautoscalers';

function watch(atMs: number, fromRv: number, rv: number): RequestLogEntry {
  return {
    at: new Date(atMs).toISOString(),
    cluster: 'prod',
    method: 'GET',
    verb: 'watch',
    path,
    status: 200,
    userAgent: 'autoscope',
    fromRv: String(fromRv),
    rv: String(rv),
  };
}

describe('servedRangesOf: what a killed process was served', () => {
  it('cuts a watch open long before the kill at what was written by the kill, or a second before it', () => {
    const log = [watch(killAt - 20_000, 1000, 4090)];
    expect(servedRangesOf(log, [kill], false).get(`prod|${path}`)).toEqual([[1000, 4090]]);
    expect(servedRangesOf(log, [kill], true).get(`prod|${path}`)).toEqual([[1000, 4050]]);
  });

  it('counts everything a watch opened in the last second delivered as in flight, however old (a resumed watch replays)', () => {
    // Opened 145 ms before the kill from a version 20 s old: it delivered the whole backlog in that moment.
    const log = [watch(killAt - 145, 1748, 4033)];
    expect(servedRangesOf(log, [kill], false).get(`prod|${path}`)).toEqual([[1748, 4033]]);
    expect(servedRangesOf(log, [kill], true).get(`prod|${path}`)).toBeUndefined();
    // Opened just over a second before: the usual cut.
    const earlier = [watch(killAt - inFlightSecond - 1, 1748, 4033)];
    expect(servedRangesOf(earlier, [kill], true).get(`prod|${path}`)).toEqual([[1748, 4033]]);
  });

  it('leaves requests after the kill (the restarted process) whole', () => {
    const log = [watch(killAt + 5_000, 4217, 4787)];
    expect(servedRangesOf(log, [kill], true).get(`prod|${path}`)).toEqual([[4217, 4787]]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Transition } from '@/sim/world/ground-truth';
import { compareWithTruth, type RecordedRow } from './compare';

const key = 'c/HorizontalPodAutoscaler/ns/web|AbleToScale';
const t = (rv: number, reason: string): Transition => ({
  at: `2026-11-24T00:00:${String(rv % 60).padStart(2, '0')}Z`,
  cluster: 'c',
  kind: 'HorizontalPodAutoscaler',
  namespace: 'ns',
  name: 'web',
  uid: 'u',
  type: 'AbleToScale',
  status: 'True',
  reason,
  message: '',
  rv: String(rv),
});
let seq = 0;
const row = (rv: number, reason: string): RecordedRow => ({
  seq: ++seq,
  id: 'c/HorizontalPodAutoscaler/ns/web',
  uid: 'u',
  type: 'AbleToScale',
  status: 'True',
  reason,
  at: '2026-11-24T00:00:00Z',
  resource_version: String(rv),
});
const truth = [t(10, 'ReadyForNewScale'), t(20, 'SucceededRescale'), t(30, 'ScaleDownStabilized'), t(40, 'ReadyForNewScale')];
const compare = (rows: RecordedRow[], unobservable: (x: Transition) => boolean = () => false) =>
  compareWithTruth({
    truthBy: new Map([[key, truth]]),
    recordedBy: new Map([[key, rows]]),
    due: () => true,
    unobservableState: (x) => unobservable(x),
  });

describe('compareWithTruth (rows matched to writes by resourceVersion)', () => {
  it('counts every transition recorded at a version where it was in effect', () => {
    const c = compare([
      row(12, 'ReadyForNewScale'),
      row(25, 'SucceededRescale'),
      row(30, 'ScaleDownStabilized'),
      row(41, 'ReadyForNewScale'),
    ]);
    expect(c).toMatchObject({ total: 4, recorded: 4, unobservable: 0, missing: [], inconsistent: [] });
  });

  it('reports a transition no row records as missing, unless proven unobservable', () => {
    const rows = [row(12, 'ReadyForNewScale'), row(35, 'ScaleDownStabilized'), row(41, 'ReadyForNewScale')];
    expect(compare(rows).missing.map((m) => m.rv)).toEqual(['20']);
    expect(compare(rows, (x) => x.rv === '20')).toMatchObject({ recorded: 3, unobservable: 1, missing: [] });
  });

  it('a flip and back behind an unobservable state counts as unobservable, not missing', () => {
    // Seen at 10 (ReadyForNewScale); 20 and 30 never served; 40 returns to what Autoscope held.
    const c = compare([row(12, 'ReadyForNewScale')], (x) => x.rv === '20' || x.rv === '30');
    expect(c).toMatchObject({ total: 4, recorded: 1, unobservable: 3, missing: [] });
  });

  it('a transition lost in flight at a kill is counted apart, and a flip back behind it is not missing', () => {
    // Seen at 10; 20 reached a process only just before it was killed; 30 returns… to something else, recorded;
    // then the same with 30 lost too and 40 back to what Autoscope held.
    const lost = (x: Transition) => x.rv === '20';
    const c = compareWithTruth({
      truthBy: new Map([[key, truth]]),
      recordedBy: new Map([[key, [row(12, 'ReadyForNewScale'), row(31, 'ScaleDownStabilized'), row(41, 'ReadyForNewScale')]]]),
      due: () => true,
      unobservableState: () => false,
      lostInFlight: lost,
    });
    expect(c).toMatchObject({ total: 4, recorded: 3, unobservable: 0, lostInFlight: 1, missing: [] });
    const both = compareWithTruth({
      truthBy: new Map([[key, truth]]),
      recordedBy: new Map([[key, [row(12, 'ReadyForNewScale')]]]),
      due: () => true,
      unobservableState: () => false,
      lostInFlight: (x) => x.rv === '20' || x.rv === '30',
    });
    expect(both).toMatchObject({ total: 4, recorded: 1, unobservable: 1, lostInFlight: 2, missing: [] });
    // Without the proof, the same transitions are missing.
    expect(compare([row(12, 'ReadyForNewScale')]).missing.map((m) => m.rv)).toEqual(['20', '30', '40']);
  });

  it('a row whose state the object did not have at its version is inconsistent', () => {
    const c = compare([row(12, 'ReadyForNewScale'), row(22, 'ScaleDownStabilized')]);
    expect(c.inconsistent).toHaveLength(1);
    expect(c.inconsistent[0]).toMatchObject({ resourceVersion: '22', truth: 'True/SucceededRescale (rv 20)' });
  });

  it('starts at the state in effect at the first sight', () => {
    const c = compare([row(33, 'ScaleDownStabilized'), row(40, 'ReadyForNewScale')]);
    expect(c).toMatchObject({ total: 2, recorded: 2, missing: [] });
  });
});

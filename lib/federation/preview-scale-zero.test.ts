import { describe, expect, it } from 'vitest';

import { previewScaleFromZero } from '@/lib/federation/preview-scale-from-zero';
import { previewScaleToZero } from '@/lib/federation/preview-scale-to-zero';

const binding = (entries: Record<string, number>) => Object.entries(entries).map(([name, replicas]) => ({ name, replicas }));

describe('previewScaleToZero / previewScaleFromZero — §4.10', () => {
  it('§4.10 StaticWeighted, mins 1/1/1, federatedMin 2: member1 (weight 1) sleeps → 0/1/1; from zero → 1/1/1', () => {
    const clusters = [
      { name: 'member1', replicas: 1, minReplicas: 1, staticWeight: 1 },
      { name: 'member2', replicas: 1, minReplicas: 1, staticWeight: 2 },
      { name: 'member3', replicas: 1, minReplicas: 1, staticWeight: 3 },
    ];
    const down = previewScaleToZero({ policy: 'StaticWeighted', federatedMinReplicas: 2, clusters });
    expect(down.zeroed).toEqual(['member1']);
    expect(down.resourceBinding).toEqual(binding({ member1: 0, member2: 1, member3: 1 }));
    const up = previewScaleFromZero({
      policy: 'StaticWeighted',
      clusters: clusters.map((c) => ({ ...c, replicas: c.name === 'member1' ? 0 : 1 })),
    });
    expect(up.woken).toEqual(['member1']);
    expect(up.resourceBinding).toEqual(binding({ member1: 1, member2: 1, member3: 1 }));
  });

  it('§4.10 Prioritized p3/p2/p1, federatedMin 1: c3 then c2 sleep → 1/0/0; from zero wakes c2 (seed literal: c3)', () => {
    const clusters = [
      { name: 'c1', replicas: 1, minReplicas: 1, priority: 3 },
      { name: 'c2', replicas: 1, minReplicas: 1, priority: 2 },
      { name: 'c3', replicas: 1, minReplicas: 1, priority: 1 },
    ];
    const down = previewScaleToZero({ policy: 'Prioritized', federatedMinReplicas: 1, clusters });
    expect(down.zeroed).toEqual(['c3', 'c2']);
    expect(down.resourceBinding).toEqual(binding({ c1: 1, c2: 0, c3: 0 }));
    const up = previewScaleFromZero({
      policy: 'Prioritized',
      clusters: clusters.map((c) => ({ ...c, replicas: c.name === 'c1' ? 1 : 0 })),
    });
    expect(up.woken).toEqual(['c2']);
    expect(up.resourceBinding).toEqual(binding({ c1: 1, c2: 1, c3: 0 }));
    expect(up.notes).toContainEqual(expect.stringContaining('would wake c3 (priority 1)'));
  });

  it('Aggregated sleeps the smallest replica count first, ties by name descending', () => {
    const down = previewScaleToZero({
      policy: 'Aggregated',
      federatedMinReplicas: 5,
      clusters: [
        { name: 'a', replicas: 2, minReplicas: 2 },
        { name: 'b', replicas: 2, minReplicas: 2 },
        { name: 'c', replicas: 4, minReplicas: 1 },
      ],
    });
    // Σ 8: b (tie with a, name descending) → 6 ≥ 5; a → 4 < 5 stops.
    expect(down.zeroed).toEqual(['b']);
  });

  it('Duplicated never scales to or from zero', () => {
    const clusters = [
      { name: 'a', replicas: 0, minReplicas: 1 },
      { name: 'b', replicas: 3, minReplicas: 1 },
    ];
    expect(previewScaleToZero({ policy: 'Duplicated', federatedMinReplicas: 1, clusters }).zeroed).toEqual([]);
    expect(previewScaleFromZero({ policy: 'Duplicated', clusters }).woken).toEqual([]);
  });

  it('DynamicWeighted wakes every dormant cluster to its min', () => {
    const up = previewScaleFromZero({
      policy: 'DynamicWeighted',
      clusters: [
        { name: 'a', replicas: 0, minReplicas: 2 },
        { name: 'b', replicas: 0, minReplicas: 3 },
        { name: 'c', replicas: 4, minReplicas: 1 },
      ],
    });
    expect(up.woken).toEqual(['a', 'b']);
    expect(up.resourceBinding).toEqual(binding({ a: 2, b: 3, c: 4 }));
  });
});

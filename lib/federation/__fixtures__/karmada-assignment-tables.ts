/**
 * Karmada's own scheduler test tables, ported case by case with upstream's names and numbers.
 *
 * - `want` / `wants` are upstream's expectations at {@link KARMADA_PINNED_COMMIT} (v1.16+ Webster divider; the
 *   DynamicWeight/Aggregated divider took this shape in d698ee591 "DynamicWeight assign replicas by webster method",
 *   first released in v1.16.0, and is unchanged at the pinned commit).
 * - `legacyWant` / `legacyWants` are the same cases' expectations at {@link KARMADA_LEGACY_COMMIT} (d698ee591^,
 *   the last commit with the v1.8–v1.15 `TakeByWeight` divider; several `wants` list every random tie outcome).
 *
 * Candidates in `Test_dynamicScale` / `Test_dynamicScaleUp` are `helper.NewClusterWithResource` clusters with
 * `pods: N` allocatable and empty requests, so `AllocatableReplicas: N`; they are written `[name, N]` here.
 * `previous` is `spec.Clusters`. A case with `wantErr` has no `want`.
 */

/** karmada-io/karmada master at the time of the port (tag v1.19.0-rc.0-18). */
export const KARMADA_PINNED_COMMIT = 'f8fdd02df3760fd9521624f284877fa84e7be6ef';
/** d698ee591^: the tables as they stood for the legacy divider. */
export const KARMADA_LEGACY_COMMIT = 'cdc5d0f6e67acf95a594cc4e35198de64e63e614';

export type Split = Readonly<Record<string, number>>;

export interface AssignmentCase {
  name: string;
  strategy: 'DynamicWeight' | 'Aggregated';
  candidates: readonly (readonly [string, number])[];
  replicas: number;
  previous: Split;
  /** upstream `want` (Test_dynamicScale) or the single entry of `wants` (Test_dynamicScaleUp) at the pinned commit. */
  want?: Split;
  wantErr?: true;
  /** upstream `want`/`wants` at the legacy commit (any one is expected). */
  legacyWants?: readonly Split[];
}

const m1 = 'member1';
const m2 = 'member2';
const m3 = 'member3';
const m4 = 'member4';

/** pkg/scheduler/core/assignment_test.go `Test_dynamicScale` (runs `assignByDynamicStrategy`). */
export const TEST_DYNAMIC_SCALE: readonly AssignmentCase[] = [
  {
    name: 'replica 12 -> 6, dynamic weighted 1:1:1',
    strategy: 'DynamicWeight',
    candidates: [[m1, 1], [m2, 1], [m3, 1]],
    replicas: 6,
    previous: { member1: 2, member2: 4, member3: 6 },
    want: { member1: 1, member2: 2, member3: 3 },
    legacyWants: [{ member1: 1, member2: 2, member3: 3 }],
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 10:10:10',
    strategy: 'DynamicWeight',
    candidates: [[m1, 10], [m2, 10], [m3, 10]],
    replicas: 24,
    previous: { member1: 2, member2: 4, member3: 6 },
    want: { member1: 6, member2: 8, member3: 10 },
    legacyWants: [{ member1: 6, member2: 8, member3: 10 }],
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 1:1:1',
    strategy: 'DynamicWeight',
    candidates: [[m1, 1], [m2, 1], [m3, 1]],
    replicas: 24,
    previous: { member1: 2, member2: 4, member3: 6 },
    wantErr: true,
  },
  {
    name: 'replica 12 -> 6, aggregated 1:1:1',
    strategy: 'Aggregated',
    candidates: [[m1, 1], [m2, 1], [m3, 1]],
    replicas: 6,
    previous: { member1: 4, member2: 8 },
    want: { member2: 6 },
    legacyWants: [{ member2: 6 }],
  },
  {
    name: 'replica 12 -> 8, aggregated 100:100',
    strategy: 'Aggregated',
    candidates: [[m1, 100], [m2, 100]],
    replicas: 8,
    previous: { member1: 4, member2: 8 },
    want: { member2: 8 },
    legacyWants: [{ member2: 8 }],
  },
  {
    name: 'replica 12 -> 24, aggregated 4:6:8',
    strategy: 'Aggregated',
    candidates: [[m1, 4], [m2, 6], [m3, 8]],
    replicas: 24,
    previous: { member1: 4, member2: 8 },
    want: { member1: 7, member2: 12, member3: 5 },
    legacyWants: [{ member1: 6, member2: 12, member3: 6 }],
  },
  {
    name: 'replica 12 -> 24, aggregated 6:6:20',
    strategy: 'Aggregated',
    candidates: [[m1, 6], [m2, 6], [m3, 20]],
    replicas: 24,
    previous: { member1: 4, member2: 8 },
    want: { member1: 10, member2: 14 },
    legacyWants: [{ member1: 10, member2: 14 }],
  },
  {
    name: 'replica 12 -> 24, aggregated 1:1:1',
    strategy: 'Aggregated',
    candidates: [[m1, 1], [m2, 1], [m3, 1]],
    replicas: 24,
    previous: { member1: 4, member2: 8 },
    wantErr: true,
  },
  {
    name: 'replica 12 -> 24, aggregated 4:8:12, with cluster2 disappeared and cluster4 appeared',
    strategy: 'Aggregated',
    candidates: [[m1, 4], [m3, 8], [m4, 12]],
    replicas: 24,
    previous: { member1: 4, member2: 8 },
    want: { member1: 7, member3: 7, member4: 10 },
    legacyWants: [{ member1: 7, member3: 6, member4: 11 }],
  },
];

/** pkg/scheduler/core/assignment_test.go `Test_dynamicScaleUp` (runs `buildScheduledClusters` + `dynamicScaleUp`). */
export const TEST_DYNAMIC_SCALE_UP: readonly AssignmentCase[] = [
  {
    name: 'replica 12, dynamic weight 6:8:10',
    strategy: 'DynamicWeight',
    candidates: [[m1, 6], [m2, 8], [m3, 10]],
    replicas: 12,
    previous: {},
    want: { member1: 3, member2: 4, member3: 5 },
    legacyWants: [{ member1: 3, member2: 4, member3: 5 }],
  },
  {
    name: 'replica 12, dynamic weight 8:8:10',
    strategy: 'DynamicWeight',
    candidates: [[m1, 8], [m2, 8], [m3, 10]],
    replicas: 12,
    previous: {},
    want: { member1: 4, member2: 4, member3: 4 },
    legacyWants: [
      { member1: 4, member2: 3, member3: 5 },
      { member1: 3, member2: 4, member3: 5 },
    ],
  },
  {
    name: 'replica 12, dynamic weight 3:3:3',
    strategy: 'DynamicWeight',
    candidates: [[m1, 3], [m2, 3], [m3, 3]],
    replicas: 12,
    previous: {},
    wantErr: true,
  },
  {
    name: 'replica 12, aggregated 6:8:10',
    strategy: 'Aggregated',
    candidates: [[m1, 6], [m2, 8], [m3, 10]],
    replicas: 12,
    previous: {},
    want: { member2: 5, member3: 7 },
    legacyWants: [{ member2: 5, member3: 7 }],
  },
  {
    name: 'replica 12, aggregated 12:8:10',
    strategy: 'Aggregated',
    candidates: [[m1, 12], [m2, 8], [m3, 10]],
    replicas: 12,
    previous: {},
    want: { member1: 12 },
    legacyWants: [{ member1: 12 }],
  },
  {
    name: 'replica 12, aggregated 3:3:3',
    strategy: 'Aggregated',
    candidates: [[m1, 3], [m2, 3], [m3, 3]],
    replicas: 12,
    previous: {},
    wantErr: true,
  },
  {
    name: 'replica 12, dynamic weight 3:3, with cluster3 disappeared and cluster2 appeared',
    strategy: 'DynamicWeight',
    candidates: [[m1, 3], [m2, 3]],
    replicas: 12,
    previous: { member1: 6, member3: 6 },
    want: { member1: 9, member2: 3 },
    legacyWants: [{ member1: 9, member2: 3 }],
  },
];

export interface DivisionCase {
  name: string;
  strategy: 'DynamicWeight' | 'Aggregated';
  /** `state.availableClusters`, in upstream's order (callers pass them already sorted descending). */
  availableClusters: readonly (readonly [string, number])[];
  targetReplicas: number;
  want: Split;
  legacyWant: Split;
}

/** pkg/scheduler/core/division_algorithm_test.go `Test_dynamicDivideReplicas` (no scheduled clusters). */
export const TEST_DYNAMIC_DIVIDE_REPLICAS: readonly DivisionCase[] = [
  {
    name: 'replica 12, dynamic weight 18:12:6',
    strategy: 'DynamicWeight',
    availableClusters: [[m1, 18], [m2, 12], [m3, 6]],
    targetReplicas: 12,
    want: { member1: 6, member2: 4, member3: 2 },
    legacyWant: { member1: 6, member2: 4, member3: 2 },
  },
  {
    name: 'replica 12, dynamic weight 20:12:6',
    strategy: 'DynamicWeight',
    availableClusters: [[m1, 20], [m2, 12], [m3, 6]],
    targetReplicas: 12,
    want: { member1: 6, member2: 4, member3: 2 },
    legacyWant: { member1: 7, member2: 4, member3: 1 },
  },
  {
    name: 'replica 12, dynamic weight 6:12:6',
    strategy: 'DynamicWeight',
    availableClusters: [[m1, 6], [m2, 12], [m3, 6]],
    targetReplicas: 12,
    want: { member1: 3, member2: 6, member3: 3 },
    legacyWant: { member1: 3, member2: 6, member3: 3 },
  },
  {
    name: 'replica 12, aggregated 12:6:6',
    strategy: 'Aggregated',
    availableClusters: [[m2, 12], [m1, 6], [m3, 6]],
    targetReplicas: 12,
    want: { member2: 12 },
    legacyWant: { member2: 12 },
  },
  {
    name: 'replica 12, aggregated 6:6:6',
    strategy: 'Aggregated',
    availableClusters: [[m1, 6], [m2, 6], [m3, 6]],
    targetReplicas: 12,
    want: { member1: 6, member2: 6 },
    legacyWant: { member1: 6, member2: 6 },
  },
];

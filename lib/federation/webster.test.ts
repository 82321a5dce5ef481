import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';

import { fnv32a } from '@/lib/federation/fnv32a';
import { allocateWebsterSeats, runWebster, tieDirectionForUid } from '@/lib/federation/webster';

// upstream: pkg/util/helper/binding_test.go constants.
const EVEN_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';

describe('fnv32a', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('hashes %j like Go hash/fnv New32a', (text, hash) => {
    expect(fnv32a(text)).toBe(hash);
  });

  it('gives the binding_test UIDs the parity their names claim', () => {
    expect(fnv32a(EVEN_UID) % 2).toBe(0);
    expect(fnv32a(ODD_UID) % 2).toBe(1);
    expect(tieDirectionForUid(EVEN_UID)).toBe('asc');
    expect(tieDirectionForUid(ODD_UID)).toBe('desc');
    expect(tieDirectionForUid('')).toBe('asc');
  });
});

const classicVotes = { PartyA: 100000, PartyB: 80000, PartyC: 30000, PartyD: 20000 };

// upstream: pkg/util/helper/webstermethod_test.go TestAllocateWebsterSeats (the Wikipedia Sainte-Laguë example and the tie rules).
describe('allocateWebsterSeats — upstream TestAllocateWebsterSeats', () => {
  it.each([
    ['classic example, round 1', 1, { PartyA: 1, PartyB: 0, PartyC: 0, PartyD: 0 }],
    ['classic example, round 2', 2, { PartyA: 1, PartyB: 1, PartyC: 0, PartyD: 0 }],
    ['classic example, round 3', 3, { PartyA: 2, PartyB: 1, PartyC: 0, PartyD: 0 }],
    ['classic example, round 4', 4, { PartyA: 2, PartyB: 1, PartyC: 1, PartyD: 0 }],
    ['classic example, round 5', 5, { PartyA: 2, PartyB: 2, PartyC: 1, PartyD: 0 }],
    // Round 6 is a tie (A 100000/5 = D 20000/1): the current Less gives it to the party with fewer seats. An
    // earlier revision of this table (more votes first) expected A 3 / D 0 here.
    ['classic example, round 6', 6, { PartyA: 2, PartyB: 2, PartyC: 1, PartyD: 1 }],
    ['classic example, round 7', 7, { PartyA: 3, PartyB: 2, PartyC: 1, PartyD: 1 }],
    ['classic example, round 8', 8, { PartyA: 3, PartyB: 3, PartyC: 1, PartyD: 1 }],
  ])('TestAllocateWebsterSeats/%s', (_name, newSeats, expected) => {
    expect(allocateWebsterSeats({ newSeats, votes: classicVotes })).toEqual(expected);
  });

  it.each([
    ['empty party votes, expect nil result', { newSeats: 1, votes: {} }, {}],
    [
      'party votes not empty, newSeats is 0, expect all seats 0',
      { newSeats: 0, votes: { PartyA: 100, PartyB: 200 } },
      { PartyA: 0, PartyB: 0 },
    ],
    ['both party votes and newSeats are 0, expect nil result', { newSeats: 0, votes: {} }, {}],
    [
      'tie-breaker is nil, expect break tie by seats',
      { newSeats: 1, votes: { PartyA: 3, PartyB: 1 }, initial: { PartyA: 1, PartyB: 0 } },
      { PartyA: 1, PartyB: 1 },
    ],
    // The two cases below come from the earlier revision of the table; they hold under the current Less too.
    [
      '(earlier revision) tie-breaker is nil, expect break tie by votes',
      { newSeats: 1, votes: { PartyA: 1, PartyB: 2 } },
      { PartyA: 0, PartyB: 1 },
    ],
    [
      '(earlier revision) tie-breaker is nil, expect break tie by seats',
      { newSeats: 1, votes: { PartyA: 0, PartyB: 0 }, initial: { PartyA: 2, PartyB: 1 } },
      { PartyA: 2, PartyB: 2 },
    ],
    ['tie-breaker is nil, expect break tie by name', { newSeats: 1, votes: { PartyA: 1, PartyB: 1 } }, { PartyA: 1, PartyB: 0 }],
    // upstream's custom tie-breakers `a.Name < b.Name` / `a.Name > b.Name` are our nameAsc / nameDesc.
    [
      'custom tie-breaker returns true, expect custom tie-breaker controls seat',
      { newSeats: 1, votes: { PartyA: 1, PartyB: 1 }, tieBreak: 'nameAsc' as const },
      { PartyA: 1, PartyB: 0 },
    ],
    [
      'custom tie-breaker returns false, expect custom tie-breaker controls seat',
      { newSeats: 1, votes: { PartyA: 1, PartyB: 1 }, tieBreak: 'nameDesc' as const },
      { PartyA: 0, PartyB: 1 },
    ],
    [
      'non-initial allocation, new party joins, only new party gets new seats',
      { newSeats: 2, votes: { NewParty1: 1, NewParty2: 1 }, initial: { OldParty: 0 } },
      { NewParty1: 1, NewParty2: 1, OldParty: 0 },
    ],
    [
      'non-initial allocation, both new and old parties compete for new seats',
      { newSeats: 2, votes: { OldParty: 1, NewParty: 1 }, initial: { OldParty: 1 } },
      { NewParty: 2, OldParty: 1 },
    ],
    [
      'non-initial allocation, initialAssignments party not in partyVotes, expect no new seats for that party',
      { newSeats: 2, votes: { PartyA: 100 }, initial: { PartyB: 3 } },
      { PartyA: 2, PartyB: 3 },
    ],
  ])('TestAllocateWebsterSeats/%s', (_name, input, expected) => {
    expect(allocateWebsterSeats(input)).toEqual(expected);
  });

  it('ExampleAllocateWebsterSeats: 4 seats for Alpha 1200, Beta 900, Gamma 400', () => {
    expect(allocateWebsterSeats({ newSeats: 4, votes: { Alpha: 1200, Beta: 900, Gamma: 400 } })).toEqual({ Alpha: 2, Beta: 1, Gamma: 1 });
  });

  it('returns parties sorted by name, zero-seat parties included', () => {
    expect(Object.keys(allocateWebsterSeats({ newSeats: 1, votes: { zeta: 5, alpha: 1, mid: 0 } }))).toEqual(['alpha', 'mid', 'zeta']);
  });
});

// upstream: pkg/util/helper/binding_test.go Test_dispenser_AllocateByWeight — NewDispenser(n, init, uid).AllocateByWeight(weights).
describe('allocateWebsterSeats — upstream Test_dispenser_AllocateByWeight', () => {
  const w123 = { A: 1, B: 2, C: 3 };
  const init123 = { A: 1, B: 2, C: 3 };
  it.each([
    ['Scale up 6 replicas', { newSeats: 6, votes: w123, initial: init123, uid: '' }, { A: 2, B: 4, C: 6 }],
    ['Scale up 3 replicas', { newSeats: 3, votes: w123, initial: init123, uid: '' }, { A: 2, B: 3, C: 4 }],
    ['Scale up 2 replicas', { newSeats: 2, votes: w123, initial: init123, uid: '' }, { A: 1, B: 3, C: 4 }],
    ['HA scenario with weight 2:1: assign 1 replica', { newSeats: 1, votes: { A: 2, B: 1 }, uid: '' }, { A: 1, B: 0 }],
    ['HA scenario with weight 2:1: assign 2 replicas', { newSeats: 2, votes: { A: 2, B: 1 }, uid: '' }, { A: 1, B: 1 }],
    ['HA scenario with weight 2:1: assign 3 replicas', { newSeats: 3, votes: { A: 2, B: 1 }, uid: '' }, { A: 2, B: 1 }],
    ['brand new assign 5 replicas', { newSeats: 5, votes: { A: 170, B: 110, C: 60 }, uid: '' }, { A: 2, B: 2, C: 1 }],
    ['brand new assign 6 replicas', { newSeats: 6, votes: { A: 170, B: 110, C: 60 }, uid: '' }, { A: 3, B: 2, C: 1 }],
    ['brand new assign 5 replicas with odd uuid', { newSeats: 5, votes: { A: 1, B: 1 }, uid: ODD_UID }, { A: 2, B: 3 }],
    ['brand new assign 5 replicas with even uuid', { newSeats: 5, votes: { A: 1, B: 1 }, uid: EVEN_UID }, { A: 3, B: 2 }],
  ])('Test_dispenser_AllocateByWeight/%s', (_name, input, expected) => {
    expect(allocateWebsterSeats(input)).toEqual(expected);
  });

  it('an explicit tieBreak overrides the UID parity', () => {
    expect(allocateWebsterSeats({ newSeats: 5, votes: { A: 1, B: 1 }, uid: ODD_UID, tieBreak: 'nameAsc' })).toEqual({ A: 3, B: 2 });
  });
});

// upstream: pkg/util/helper/binding_test.go TestDispenseReplicasByTargetClusters — SpreadReplicasByTargetClusters(sum, clusters, nil, "").
describe('allocateWebsterSeats — upstream TestDispenseReplicasByTargetClusters', () => {
  it.each([
    ['empty clusters', 10, {}, [{}]],
    ['1 cluster, 5 replicas, 10 sum', 10, { member1: 5 }, [{ member1: 10 }]],
    ['3 cluster, 1:1:1, 12 sum', 12, { member1: 5, member2: 5, member3: 5 }, [{ member1: 4, member2: 4, member3: 4 }]],
    [
      '3 cluster, 1:1:1, 10 sum',
      10,
      { member1: 5, member2: 5, member3: 5 },
      [
        { member1: 4, member2: 3, member3: 3 },
        { member1: 3, member2: 4, member3: 3 },
        { member1: 3, member2: 3, member3: 4 },
      ],
    ],
    ['3 cluster, 1:2:3, 13 sum', 13, { member1: 1, member2: 2, member3: 3 }, [{ member1: 2, member2: 4, member3: 7 }]],
  ])('TestDispenseReplicasByTargetClusters/%s', (_name, sum, clusters, wants) => {
    const got = allocateWebsterSeats({ newSeats: sum, votes: clusters, uid: '' });
    expect(wants).toContainEqual(got);
  });

  it('the empty UID picks the ascending-name outcome of the 1:1:1, 10 sum case', () => {
    expect(allocateWebsterSeats({ newSeats: 10, votes: { member1: 5, member2: 5, member3: 5 } })).toEqual({
      member1: 4,
      member2: 3,
      member3: 3,
    });
  });
});

// docs/engines/federation.md §3.3: the Webster column of the legacy → Webster table (Karmada's own test vectors).
describe('allocateWebsterSeats — §3.3 Webster column', () => {
  it.each([
    ['weights 2:1, N=2', 2, { A: 2, B: 1 }, { A: 1, B: 1 }],
    ['weights 170:110:60, N=5', 5, { A: 170, B: 110, C: 60 }, { A: 2, B: 2, C: 1 }],
    ['weights 170:110:60, N=6', 6, { A: 170, B: 110, C: 60 }, { A: 3, B: 2, C: 1 }],
    ['weights 3:2:1, N=14', 14, { member1: 3, member2: 2, member3: 1 }, { member1: 7, member2: 5, member3: 2 }],
    ['dynamic weights 20:12:6, N=12', 12, { member1: 20, member2: 12, member3: 6 }, { member1: 6, member2: 4, member3: 2 }],
  ])('%s', (_name, newSeats, votes, expected) => {
    expect(allocateWebsterSeats({ newSeats, votes })).toEqual(expected);
  });
});

describe('allocateWebsterSeats — validation', () => {
  it.each([
    [{ newSeats: -1, votes: { A: 1 } }, 'newSeats'],
    [{ newSeats: 1.5, votes: { A: 1 } }, 'newSeats'],
    [{ newSeats: 1, votes: { A: -3 } }, 'votes.A'],
    [{ newSeats: 1, votes: { A: 1 }, initial: { B: -1 } }, 'initial.B'],
    [{ newSeats: 1, votes: { A: 1 }, tieBreak: 'random' }, 'tieBreak'],
  ])('rejects %j naming %s', (input, path) => {
    const error = captureError(() => allocateWebsterSeats(input as never));
    expect(error).toBeInstanceOf(ZodError);
    expect((error as ZodError).issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const voteMaps = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 12 })
  .chain((names) =>
    fc.tuple(fc.constant(names), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: names.length, maxLength: names.length })),
  )
  .map(([names, weights]) => names.map((name, i) => [name, weights[i] ?? 0] as const));

/** The textbook one-seat-at-a-time loop with upstream's tie rule, to check the bulk + heap implementation against. */
function naiveWebster(
  newSeats: number,
  votes: readonly (readonly [string, number])[],
  initial: readonly (readonly [string, number])[],
  direction: 'asc' | 'desc',
): Map<string, number> {
  const seats = new Map<string, number>(initial);
  const v = new Map<string, number>(votes);
  for (const [name] of votes) if (!seats.has(name)) seats.set(name, 0);
  for (const [name] of initial) if (!v.has(name)) v.set(name, 0);
  const names = [...seats.keys()];
  for (let round = 0; round < newSeats && names.length > 0; round++) {
    let best = names[0] as string;
    for (const name of names.slice(1)) {
      const [pa, pb] = [(v.get(name) ?? 0) / (2 * (seats.get(name) ?? 0) + 1), (v.get(best) ?? 0) / (2 * (seats.get(best) ?? 0) + 1)];
      const [sa, sb] = [seats.get(name) ?? 0, seats.get(best) ?? 0];
      const wins = pa !== pb ? pa > pb : sa !== sb ? sa < sb : direction === 'asc' ? name < best : name > best;
      if (wins) best = name;
    }
    seats.set(best, (seats.get(best) ?? 0) + 1);
  }
  return new Map([...seats].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe('Webster properties (fast-check)', () => {
  it('bulk allocation plus heap equals the one-seat-at-a-time method, ties and initial seats included', () => {
    fc.assert(
      fc.property(
        voteMaps,
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { maxLength: 12 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (votes, n, initialSeats, direction) => {
          const initial = votes.slice(0, initialSeats.length).map(([name], i) => [name, initialSeats[i] ?? 0] as const);
          expect([...runWebster(n, votes, initial, direction)]).toEqual([...naiveWebster(n, votes, initial, direction)]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('bulk allocation handles equal votes (every seat a tie) exactly', () => {
    const votes = Array.from({ length: 7 }, (_, i) => [`p${i}`, 3] as const);
    for (const n of [14, 15, 20, 100]) {
      expect([...runWebster(n, votes, [], 'desc')]).toEqual([...naiveWebster(n, votes, [], 'desc')]);
    }
  });

  it('is house-monotone: the N+1 split extends the N split by exactly one seat', () => {
    fc.assert(
      fc.property(voteMaps, fc.integer({ min: 0, max: 200 }), fc.constantFrom('asc' as const, 'desc' as const), (votes, n, direction) => {
        const smaller = runWebster(n, votes, [], direction);
        const larger = runWebster(n + 1, votes, [], direction);
        let grown = 0;
        for (const [name, seats] of smaller) {
          const next = larger.get(name) ?? -1;
          expect(next).toBeGreaterThanOrEqual(seats);
          grown += next - seats;
        }
        expect(grown).toBe(1);
      }),
    );
  });

  it('sums to N plus the initial seats and never goes negative or below the initial seats', () => {
    fc.assert(
      fc.property(
        voteMaps,
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 12 }),
        (votes, n, initialSeats) => {
          const initial = votes.slice(0, initialSeats.length).map(([name], i) => [name, initialSeats[i] ?? 0] as const);
          const seats = runWebster(n, votes, initial, 'asc');
          const total = [...seats.values()].reduce((a, b) => a + b, 0);
          expect(total).toBe(n + initial.reduce((a, [, s]) => a + s, 0));
          for (const [name, s] of initial) expect(seats.get(name)).toBeGreaterThanOrEqual(s);
          for (const s of seats.values()) expect(s).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('stays within one seat of the exact quota (Webster is quota-consistent for 2 parties)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 500 }), (a, b, n) => {
        const seats = runWebster(
          n,
          [
            ['a', a],
            ['b', b],
          ],
          [],
          'asc',
        );
        const quota = (n * a) / (a + b);
        expect(Math.abs((seats.get('a') ?? 0) - quota)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

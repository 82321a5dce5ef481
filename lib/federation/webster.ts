import { WebsterSeatsInputSchema, type SeatMap, type TieBreak, type WebsterSeatsInput } from '@/lib/api/federation';
import { fnv32a } from '@/lib/federation/fnv32a';

/** Which way a name tie goes once priority and seats are equal. */
export type TieDirection = 'asc' | 'desc';

/**
 * upstream: pkg/util/helper/binding.go `tieBreakerByUID` — an empty UID sorts names ascending; otherwise the
 * parity of fnv32a(uid) decides (even → ascending, odd → descending), so equal-weight workloads do not all
 * pile their odd replica onto the alphabetically first cluster.
 */
export function tieDirectionForUid(uid: string | undefined): TieDirection {
  if (!uid) return 'asc';
  return fnv32a(uid) % 2 === 1 ? 'desc' : 'asc';
}

/** An explicit `tieBreak` wins; otherwise the UID decides as the live scheduler does. */
export function resolveTieDirection(tieBreak: TieBreak | undefined, uid: string | undefined): TieDirection {
  if (tieBreak === 'nameAsc') return 'asc';
  if (tieBreak === 'nameDesc') return 'desc';
  return tieDirectionForUid(uid);
}

/** Byte-order string comparison, like Go's `<` on ASCII names. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Party {
  name: string;
  votes: number;
  seats: number;
  /** votes / (2·seats + 1), cached: recomputed only when the party wins a seat. */
  priority: number;
}

/**
 * The Sainte-Laguë (Webster) divisor method as upstream's `AllocateWebsterSeats`
 * (pkg/util/helper/webstermethod.go): hand `newSeats` seats out one at a time to the party with the highest
 * `votes / (2·seats + 1)`; ties go to fewer seats, then by name in `direction`. Parties are the union of
 * `votes` and `initial` (a party only in `initial` has 0 votes); seats start at `initial`.
 *
 * The comparison is a strict total order (names are unique), so the winner of each round does not depend on
 * how the heap is built: a replace-top-and-sift-down heap yields the same seats as upstream's Pop/Push.
 * Returns every party, sorted by name ascending, as upstream does.
 */
export function runWebster(
  newSeats: number,
  votes: Iterable<readonly [string, number]>,
  initial: Iterable<readonly [string, number]>,
  direction: TieDirection,
): Map<string, number> {
  const byName = new Map<string, Party>();
  for (const [name, seats] of initial) byName.set(name, { name, votes: 0, seats, priority: 0 });
  for (const [name, v] of votes) {
    const existing = byName.get(name);
    if (existing) existing.votes = v;
    else byName.set(name, { name, votes: v, seats: 0, priority: 0 });
  }
  const parties = [...byName.values()];
  for (const party of parties) party.priority = party.votes / (2 * party.seats + 1);

  if (parties.length > 0 && newSeats > 0) {
    const ascending = direction === 'asc';
    // upstream: WebsterPriorityQueue.Less — float64 priorities compared with ==, like Go.
    const better = (a: Party, b: Party): boolean => {
      if (a.priority !== b.priority) return a.priority > b.priority;
      if (a.seats !== b.seats) return a.seats < b.seats;
      return ascending ? a.name < b.name : a.name > b.name;
    };
    const heap = parties.slice();
    const n = heap.length;
    const siftDown = (start: number): void => {
      let index = start;
      const item = heap[index] as Party;
      for (;;) {
        const left = 2 * index + 1;
        if (left >= n) break;
        const right = left + 1;
        let child = left;
        if (right < n && better(heap[right] as Party, heap[left] as Party)) child = right;
        const candidate = heap[child] as Party;
        if (!better(candidate, item)) break;
        heap[index] = candidate;
        index = child;
      }
      heap[index] = item;
    };
    for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(i);
    for (let remaining = newSeats; remaining > 0; remaining--) {
      const top = heap[0] as Party;
      top.seats += 1;
      top.priority = top.votes / (2 * top.seats + 1);
      siftDown(0);
    }
  }

  parties.sort((a, b) => compareNames(a.name, b.name));
  return new Map(parties.map((p) => [p.name, p.seats]));
}

/**
 * Karmada v1.16+'s divider (`AllocateWebsterSeats` behind `Dispenser.AllocateByWeight`). Returns every party,
 * zero-seat ones included; the tie direction comes from `tieBreak`, else from the UID's FNV-32a parity.
 */
export function allocateWebsterSeats(input: WebsterSeatsInput): SeatMap {
  const parsed = WebsterSeatsInputSchema.parse(input);
  const direction = resolveTieDirection(parsed.tieBreak, parsed.uid);
  const seats = runWebster(parsed.newSeats, Object.entries(parsed.votes), Object.entries(parsed.initial ?? {}), direction);
  return Object.fromEntries(seats);
}

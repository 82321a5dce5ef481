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

/** Seats a party would win whose priority `votes / (2·seats + 1)` stays strictly above `threshold`. */
function seatsAbove(party: Party, threshold: number): number {
  const { votes, seats } = party;
  if (votes === 0) return 0;
  if (!(threshold > 0)) return Number.POSITIVE_INFINITY;
  // Closed form first, then nudged with the exact float expression the comparison uses.
  let count = Math.max(0, Math.ceil((votes / threshold - 1) / 2) - seats);
  if (!Number.isFinite(count)) return Number.POSITIVE_INFINITY;
  while (count > 0 && votes / (2 * (seats + count - 1) + 1) <= threshold) count--;
  while (votes / (2 * (seats + count) + 1) > threshold) count++;
  return count;
}

/**
 * Hands out, in bulk, every seat whose priority is strictly above a threshold λ chosen so that at most
 * `newSeats` such seats exist; returns how many seats are left for the one-at-a-time heap.
 *
 * Why this equals the sequential method: a party's priorities fall as it gains seats, so the sequential
 * method awards exactly the `newSeats` best (priority, fewer seats, name) pairs of all parties. Every pair
 * above λ is better than every pair at or below it, so when there are at most `newSeats` of them they are all
 * among the awarded ones, whatever the tie rule.
 */
function bulkAllocate(parties: Party[], newSeats: number): number {
  const totalVotes = parties.reduce((sum, p) => sum + p.votes, 0);
  if (newSeats < 2 * parties.length || totalVotes === 0) return newSeats;
  const count = (threshold: number): number => parties.reduce((sum, p) => sum + seatsAbove(p, threshold), 0);
  // Webster's divisor is about Σvotes / Σseats; the priority of the last seat is about half of it.
  const totalSeats = newSeats + parties.reduce((sum, p) => sum + p.seats, 0);
  let high = totalVotes / totalSeats;
  while (count(high) > newSeats) high *= 2;
  let low = high / 4;
  while (low > 0 && count(low) <= newSeats) low /= 2;
  for (let i = 0; i < 40 && high - low > high * 1e-12; i++) {
    const middle = (low + high) / 2;
    if (count(middle) <= newSeats) high = middle;
    else low = middle;
  }
  let awarded = 0;
  for (const party of parties) {
    const extra = seatsAbove(party, high);
    party.seats += extra;
    party.priority = party.votes / (2 * party.seats + 1);
    awarded += extra;
  }
  return newSeats - awarded;
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
  const remaining = bulkAllocate(parties, newSeats);
  if (parties.length > 0 && remaining > 0) {
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
    for (let left = remaining; left > 0; left--) {
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

import { compareNames } from '@/lib/federation/webster';

/**
 * Hamilton's largest-remainder method, exact (BigInt): floor every quota, then one seat each to the largest
 * fractional parts (ties by name). Not used by Karmada; notes quote it to show which rounding rules agree.
 */
export function largestRemainder(total: number, weights: readonly (readonly [string, number])[]): Map<string, number> {
  const sum = weights.reduce((acc, [, w]) => acc + BigInt(w), 0n);
  const result = new Map<string, number>(weights.map(([name]) => [name, 0]));
  if (sum === 0n) return result;
  const rows = weights.map(([name, w]) => {
    const scaled = BigInt(w) * BigInt(total);
    return { name, floor: scaled / sum, fraction: scaled % sum };
  });
  let remaining = total - rows.reduce((acc, r) => acc + Number(r.floor), 0);
  for (const row of rows) result.set(row.name, Number(row.floor));
  const byFraction = rows
    .slice()
    .sort((a, b) => (a.fraction === b.fraction ? compareNames(a.name, b.name) : a.fraction > b.fraction ? -1 : 1));
  for (const row of byFraction) {
    if (remaining <= 0) break;
    result.set(row.name, (result.get(row.name) ?? 0) + 1);
    remaining--;
  }
  return result;
}

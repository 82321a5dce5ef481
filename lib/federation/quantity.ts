import type { Quantity } from '@/lib/api/federation';

/** An exact rational value of a Kubernetes quantity: `numerator / denominator`, denominator > 0. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const BINARY_POWER: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** Parses a quantity exactly (k8s.io/apimachinery resource.ParseQuantity's grammar); throws on bad syntax. */
export function parseQuantity(quantity: Quantity): Rational {
  const text = typeof quantity === 'number' ? String(quantity) : quantity.trim();
  const match = QUANTITY.exec(text);
  if (!match) throw new Error(`invalid quantity "${text}"`);
  const [, sign = '', mantissa = '0', suffix = ''] = match;
  const [whole = '', fraction = ''] = mantissa.split('.');
  let numerator = BigInt(`${whole}${fraction}` || '0');
  let denominator = 10n ** BigInt(fraction.length);
  let exponent = 0;
  const binary = BINARY_POWER[suffix];
  if (binary !== undefined) numerator *= 2n ** binary;
  else if (suffix in DECIMAL_EXPONENT) exponent = DECIMAL_EXPONENT[suffix] ?? 0;
  else if (suffix) exponent = Number(suffix.slice(1));
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator *= 10n ** BigInt(-exponent);
  return { numerator: sign === '-' ? -numerator : numerator, denominator };
}

export function subtract(a: Rational, b: Rational): Rational {
  return { numerator: a.numerator * b.denominator - b.numerator * a.denominator, denominator: a.denominator * b.denominator };
}

/** `Quantity.Value()`: the value rounded up, away from zero, to an integer. */
export function ceilValue(q: Rational): bigint {
  const { numerator, denominator } = q;
  if (numerator >= 0n) return (numerator + denominator - 1n) / denominator;
  return -((-numerator + denominator - 1n) / denominator);
}

/** `Quantity.MilliValue()`: the value in thousandths, rounded up away from zero. */
export function ceilMilliValue(q: Rational): bigint {
  return ceilValue({ numerator: q.numerator * 1000n, denominator: q.denominator });
}

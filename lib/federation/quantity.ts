import type { FederationQuantity } from '@/lib/api/federation';
import { parseQuantity } from '@/lib/k8s/quantity';

/**
 * An exact rational value of a Kubernetes quantity: `numerator / denominator`, denominator > 0. The general
 * estimator subtracts quantities (`allocatable.Sub(allocated)`) before rounding, so they are kept exact here.
 */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

/** Parses with `resource.ParseQuantity`'s rules (lib/k8s/quantity) into an exact rational. */
export function toRational(quantity: FederationQuantity): Rational {
  const { mantissa, exponent } = parseQuantity(quantity);
  return exponent >= 0
    ? { numerator: mantissa * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: mantissa, denominator: 10n ** BigInt(-exponent) };
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

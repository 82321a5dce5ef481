/**
 * Kubernetes `resource.Quantity`, ported from k8s.io/apimachinery/pkg/api/resource (quantity.go, amount.go,
 * scale_int.go, suffix.go).
 *
 * Hand-written on purpose: no maintained JS library reproduces Kubernetes' rounding. Upstream keeps a parsed value
 * either as an int64 at a decimal scale (the fast path) or as an arbitrary-precision decimal rounded *away from
 * zero* to the nano; `MilliValue()` then rounds up (ceil for positives) and, for negatives, the two representations
 * round differently. The HPA controller does all of its arithmetic on `MilliValue()`, so previews must too. Values
 * are BigInt inside, since metric values routinely exceed 2^53 milli-units (upstream tests use MaxInt64).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity: value = mantissa × 10^exponent. */
export interface ParsedQuantity {
  mantissa: bigint;
  exponent: number;
  format: QuantityFormat;
  /**
   * `int64` when upstream stores an int64Amount (fits int64 at a scale ≥ nano), `dec` for its inf.Dec form.
   * Only the rounding of negative values in `milliValue` depends on it.
   */
  representation: 'int64' | 'dec';
}

export type QuantityErrorCode = 'format' | 'numeric' | 'suffix';

const SPLIT_RE_STRING = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

const ERROR_MESSAGES: Record<QuantityErrorCode, string> = {
  // upstream: quantity.go ErrFormatWrong / ErrNumeric / ErrSuffix, verbatim
  format: `quantities must match the regular expression '${SPLIT_RE_STRING}'`,
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
};

/** The typed error `parseQuantity` throws for an invalid string. */
export class QuantityParseError extends Error {
  readonly code: QuantityErrorCode;
  readonly input: string;
  constructor(code: QuantityErrorCode, input: string) {
    super(ERROR_MESSAGES[code]);
    this.name = 'QuantityParseError';
    this.code = code;
    this.input = input;
  }
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const NANO = -9;

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_SUFFIX_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));

const POW10_CACHE: bigint[] = [];
function pow10n(n: number): bigint {
  let cached = POW10_CACHE[n];
  if (cached === undefined) {
    cached = 10n ** BigInt(n);
    if (n < 64) POW10_CACHE[n] = cached;
  }
  return cached;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const SUFFIX_CHARS = 'eEinumkKMGTP';

interface ScannedQuantity {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** upstream: parseQuantityString, a fast scanner that splits sign, numerator, denominator and suffix. */
function scanQuantity(str: string): ScannedQuantity {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  // strip leading zeros
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str.charCodeAt(i) === 48) pos++;
    else break;
  }
  let num = '';
  let i = pos;
  for (; ; i++) {
    if (i >= end) return { positive, value: str, num: str.slice(pos, end), denom: '', suffix: '' };
    if (!isDigit(str.charCodeAt(i))) break;
  }
  num = str.slice(pos, i);
  pos = i;
  if (num.length === 0) num = '0';

  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    let j = pos;
    for (; ; j++) {
      if (j >= end) return { positive, value: str, num, denom: str.slice(pos, end), suffix: '' };
      if (!isDigit(str.charCodeAt(j))) break;
    }
    denom = str.slice(pos, j);
    pos = j;
  }
  const value = str.slice(0, pos);

  const suffixStart = pos;
  let k = pos;
  for (; ; k++) {
    if (k >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if (!SUFFIX_CHARS.includes(str.charAt(k))) {
      pos = k;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let m = pos; ; m++) {
    if (m >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if (!isDigit(str.charCodeAt(m))) break;
  }
  // a non-digit in the exponent part
  throw new QuantityParseError('format', str);
}

interface SuffixInterpretation {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

/** upstream: suffixHandler.interpret */
function interpretSuffix(suffix: string): SuffixInterpretation | null {
  const decimal = DECIMAL_SUFFIXES[suffix];
  if (decimal !== undefined && Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY_SUFFIXES[suffix];
  if (binary !== undefined && Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'E' || suffix[0] === 'e')) {
    const text = suffix.slice(1);
    // strconv.ParseInt(s, 10, 64): optional sign, decimal digits, must fit int64
    if (!/^[+-]?\d+$/.test(text)) return null;
    const parsed = BigInt(text);
    if (parsed > INT64_MAX || parsed < INT64_MIN) return null;
    // int32(parsed) wraps upstream
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return null;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Parses a quantity string exactly as `resource.ParseQuantity` does; throws `QuantityParseError`. */
export function parseQuantity(input: string | number): ParsedQuantity {
  const str = typeof input === 'number' ? String(input) : input;
  if (str.length === 0) throw new QuantityParseError('format', str);
  if (str === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', representation: 'int64' };

  const { positive, value, num, denom, suffix } = scanQuantity(str);
  const interpretation = interpretSuffix(suffix);
  if (!interpretation) throw new QuantityParseError('suffix', str);
  const { base, exponent } = interpretation;
  let format = interpretation.format;

  let precision = 0;
  let scale = 0;
  let multiplier = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      multiplier = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }

  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = BigInt(num + denom);
      const product = shifted * multiplier;
      if (product <= INT64_MAX) {
        return { mantissa: positive ? product : -product, exponent: scale, format, representation: 'int64' };
      }
    }
  }

  // upstream: the inf.Dec slow path
  const decimal = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (!decimal || (decimal[2] ?? '') + (decimal[3] ?? '') === '') throw new QuantityParseError('numeric', str);
  const fraction = decimal[3] ?? '';
  let unscaled = BigInt((decimal[2] ?? '') + fraction || '0');
  if (decimal[1] === '-') unscaled = -unscaled;
  let decExponent = -fraction.length;
  if (base === 10) decExponent += exponent;
  else unscaled *= 1n << BigInt(exponent);

  const negative = unscaled < 0n;
  let magnitude = abs(unscaled);
  if (magnitude !== 0n) {
    // Round to the nano, away from zero ("if you want some resources, you should get some resources").
    if (decExponent < NANO) {
      const divisor = pow10n(NANO - decExponent);
      const quotient = magnitude / divisor;
      magnitude = magnitude % divisor === 0n ? quotient : quotient + 1n;
    } else if (decExponent > NANO) {
      magnitude *= pow10n(decExponent - NANO);
    }
    decExponent = NANO;
  }
  if (format === 'BinarySI' && compareDecimal(magnitude, decExponent, INT64_MAX, 0) > 0) {
    // BinarySI is silently capped at 2^63-1 (upstream maxAllowed, scale 0)
    magnitude = INT64_MAX;
    decExponent = 0;
  }
  if (format === 'BinarySI' && magnitude !== 0n && compareDecimal(magnitude, decExponent, 1n, 0) < 0) format = 'DecimalSI';
  return { mantissa: negative ? -magnitude : magnitude, exponent: decExponent, format, representation: 'dec' };
}

/** The parsed quantity, or null when the string is not a valid quantity. */
export function tryParseQuantity(input: string | number): ParsedQuantity | null {
  try {
    return parseQuantity(input);
  } catch (error) {
    if (error instanceof QuantityParseError) return null;
    throw error;
  }
}

export function isValidQuantity(input: string | number): boolean {
  return tryParseQuantity(input) !== null;
}

function compareDecimal(aMantissa: bigint, aExponent: number, bMantissa: bigint, bExponent: number): number {
  const e = Math.min(aExponent, bExponent);
  const a = aMantissa * pow10n(aExponent - e);
  const b = bMantissa * pow10n(bExponent - e);
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Compares two quantities by value (upstream `Quantity.Cmp`). */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  return compareDecimal(a.mantissa, a.exponent, b.mantissa, b.exponent);
}

const wrap64 = (x: bigint): bigint => BigInt.asIntN(64, x);

/** upstream: negativeScaleInt64, rounding a non-exact result away from zero. */
function negativeScaleInt64(base: bigint, scale: number): bigint {
  if (scale === 0) return base;
  let value = base;
  let fraction = false;
  for (let i = 0; i < scale; i++) {
    if (!fraction && value % 10n !== 0n) fraction = true;
    value /= 10n;
    if (value === 0n) {
      if (fraction) return base > 0n ? 1n : -1n;
      return 0n;
    }
  }
  if (fraction) value += base > 0n ? 1n : -1n;
  return value;
}

/**
 * upstream: positiveScaleInt64. On overflow the dedicated ×10/×100/×1000/×10^6/×10^9 helpers hand back the
 * wrapped product and the generic loop hands back 0; AsScaledInt64 ignores the ok flag either way.
 */
function positiveScaleInt64(base: bigint, scale: number): bigint {
  const exact = base * pow10n(scale);
  if (exact >= INT64_MIN && exact <= INT64_MAX) return exact;
  if (scale === 1 || scale === 2 || scale === 3 || scale === 6 || scale === 9) return base === INT64_MIN ? 0n : wrap64(exact);
  return 0n;
}

/**
 * `Quantity.ScaledValue(scale)`: ceil(q / 10^scale) as an int64, with upstream's overflow behaviour (which
 * its docs call undefined and which no caller should rely on).
 */
export function scaledValue(q: ParsedQuantity, scale: number): bigint {
  if (q.representation === 'int64') {
    if (q.exponent < scale) return negativeScaleInt64(q.mantissa, scale - q.exponent);
    return positiveScaleInt64(q.mantissa, q.exponent - scale);
  }
  // upstream: scaledValue(unscaled, scale, newScale) on the inf.Dec, whose scale is -exponent
  const unscaled = q.mantissa;
  const dif = -q.exponent - -scale;
  if (dif === 0) return wrap64(unscaled);
  if (dif < 0) {
    const multiplier = -dif <= 18 ? pow10n(-dif) : INT64_MIN;
    return wrap64(wrap64(unscaled) * multiplier);
  }
  if (unscaled < INT64_MAX && dif < 19) {
    const low = wrap64(unscaled);
    const divisor = pow10n(dif);
    const result = low / divisor;
    return low % divisor !== 0n ? wrap64(result + 1n) : result;
  }
  // big.Int.DivMod is Euclidean
  const divisor = pow10n(dif);
  let quotient = unscaled / divisor;
  let remainder = unscaled % divisor;
  if (remainder < 0n) {
    quotient -= 1n;
    remainder += divisor;
  }
  return remainder !== 0n ? wrap64(wrap64(quotient) + 1n) : wrap64(quotient);
}

// Parsing is pure, so a bounded cache only saves time: an HPA sync reads the same few strings ("500m") per pod.
const MILLI_CACHE = new Map<string, bigint>();
const MILLI_CACHE_LIMIT = 4096;

/** `Quantity.MilliValue()`: ceil(q × 1000) as an int64 (BigInt). Accepts a string, number or parsed quantity. */
export function milliValue(q: ParsedQuantity | string | number): bigint {
  if (typeof q === 'object') return scaledValue(q, -3);
  const key = typeof q === 'number' ? String(q) : q;
  const cached = MILLI_CACHE.get(key);
  if (cached !== undefined) return cached;
  const value = scaledValue(parseQuantity(key), -3);
  if (MILLI_CACHE.size >= MILLI_CACHE_LIMIT) MILLI_CACHE.clear();
  MILLI_CACHE.set(key, value);
  return value;
}

/** `Quantity.Value()`: the value rounded up (away from zero) to an integer, as an int64 (BigInt). */
export function integerValue(q: ParsedQuantity | string | number): bigint {
  return scaledValue(typeof q === 'object' ? q : parseQuantity(q), 0);
}

const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS_TAB32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG_TAB32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

/** Go's math.Pow10, table for table, so products round the same way. */
export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return (POW10_POS_TAB32[Math.trunc(n / 32)] ?? Infinity) * (POW10_TAB[n % 32] ?? 1);
  if (n < 0 && n >= -323) return (POW10_NEG_TAB32[Math.trunc(-n / 32)] ?? 0) / (POW10_TAB[-n % 32] ?? 1);
  return n > 0 ? Infinity : 0;
}

/** `Quantity.AsApproximateFloat64()`: float64(mantissa) × math.Pow10(exponent). */
export function asApproximateFloat64(q: ParsedQuantity | string | number): number {
  const parsed = typeof q === 'object' ? q : parseQuantity(q);
  const base = Number(parsed.mantissa);
  if (parsed.exponent === 0) return base;
  return base * goPow10(parsed.exponent);
}

function removeFactors(value: bigint, factor: bigint): [bigint, number] {
  let times = 0;
  let result = value;
  while (result !== 0n && result % factor === 0n) {
    result /= factor;
    times++;
  }
  return [result, times];
}

/** The canonical string upstream's `Quantity.String()` prints ("1500m", "1536Mi", "1e21", "0"). */
export function quantityToString(q: ParsedQuantity): string {
  if (q.mantissa === 0n) return '0';
  let format: QuantityFormat = q.format;
  let rounded: bigint | null = null;
  if (format === 'BinarySI') {
    if (compareDecimal(q.mantissa, q.exponent, -1024n, 0) > 0 && compareDecimal(q.mantissa, q.exponent, 1024n, 0) < 0) {
      format = 'DecimalSI';
    } else if (q.exponent >= 0) {
      rounded = q.mantissa * pow10n(q.exponent);
    } else {
      const divisor = pow10n(-q.exponent);
      if (q.mantissa % divisor === 0n) rounded = q.mantissa / divisor;
      else format = 'DecimalSI';
    }
  }
  if (format === 'BinarySI' && rounded !== null) {
    const negative = rounded < 0n;
    const [amount, times] = removeFactors(abs(rounded), 1024n);
    const suffix = BINARY_SUFFIX_BY_EXPONENT.get(times * 10) ?? '';
    return `${negative ? '-' : ''}${amount}${suffix}`;
  }
  const negative = q.mantissa < 0n;
  const [reduced, times] = removeFactors(abs(q.mantissa), 10n);
  let amount = reduced;
  let exponent = q.exponent + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  const sign = negative ? '-' : '';
  if (format === 'DecimalSI') {
    const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exponent);
    // DecimalSI has no suffix beyond "E"; upstream falls back to exponent notation
    if (suffix !== undefined) return `${sign}${amount}${suffix}`;
  }
  return exponent === 0 ? `${sign}${amount}` : `${sign}${amount}e${exponent}`;
}

/** `resource.NewMilliQuantity(value, format).String()`, e.g. 250 → "250m", 2000 → "2". */
export function formatMilliQuantity(milli: bigint | number, format: QuantityFormat = 'DecimalSI'): string {
  return quantityToString({ mantissa: BigInt(milli), exponent: -3, format, representation: 'int64' });
}

/** `resource.NewQuantity(value, format).String()`, e.g. 1048576 BinarySI → "1Mi". */
export function formatQuantity(value: bigint | number, format: QuantityFormat = 'DecimalSI'): string {
  return quantityToString({ mantissa: BigInt(value), exponent: 0, format, representation: 'int64' });
}

/** The canonical form of a quantity string, as the API server would echo it back. */
export function canonicalizeQuantity(input: string | number): string {
  return quantityToString(parseQuantity(input));
}

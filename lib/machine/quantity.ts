/**
 * Just enough Kubernetes quantity and integer parsing for the annotations the autoscaler reads. Values are
 * returned as JS numbers: `lib/machine` only asks "does it parse", "is it zero", "is it a whole number".
 */

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** The value of a quantity string (`resource.ParseQuantity` grammar), or null when it does not parse. */
export function parseQuantity(text: string): number | null {
  const match = QUANTITY.exec(text);
  if (!match) return null;
  const [, numberPart, binary, decimal, exponent] = match;
  const base = Number(numberPart);
  if (!Number.isFinite(base)) return null;
  if (binary !== undefined) return base * (BINARY[binary] ?? 1);
  if (decimal !== undefined) return base * (DECIMAL[decimal] ?? 1);
  if (exponent !== undefined) return base * 10 ** Number(exponent);
  return base;
}

/** `strconv.Atoi` semantics: optional sign, decimal digits only (what parseScalingBounds and GetLimits use). */
export function parseAtoi(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/** A whole-number JSON field (int32 in the Go types); anything else reads as absent. */
export function readInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

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

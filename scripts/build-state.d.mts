/** Why `.next` must be rebuilt (missing, or older than a source), or null when it is current. */
export function buildNeeded(root: string): string | null;

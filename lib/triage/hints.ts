import { FALLBACK_REASON, REASONS } from '@/lib/triage/reasons';
import type { HintEntry, HintFacts, HintRefinement } from '@/lib/triage/reasons';

export type { HintEntry, HintFacts, HintRefinement } from '@/lib/triage/reasons';

/** The hints of the reason registry, by code (reasons.ts holds them with the rest of each reason). */
export const HINTS: Readonly<Record<string, HintEntry>> = REASONS;

/** The registry entry of a code, or the generic one for a code Autoscope does not know. */
export function hintEntry(code: string): HintEntry {
  return REASONS[code] ?? FALLBACK_REASON;
}

/** The refinement whose pattern matches the message, if any. */
export function findRefinement(code: string, message: string): { refinement: HintRefinement; match: RegExpExecArray } | null {
  for (const refinement of hintEntry(code).refinements ?? []) {
    const match = refinement.pattern.exec(message);
    if (match) return { refinement, match };
  }
  return null;
}

/** The title and next step for one problem. */
export function hintFor(code: string, facts: HintFacts): { title: string; hint: string } {
  const entry = hintEntry(code);
  const refined = findRefinement(code, facts.message);
  if (refined) return { title: refined.refinement.title ?? entry.title, hint: refined.refinement.hint(refined.match, facts) };
  return { title: entry.title, hint: entry.hint(facts) };
}

/** Codes with at least one `separate` refinement: only their messages need reading when grouping. */
const CODES_WITH_SEPARATE_CAUSES: ReadonlySet<string> = new Set(
  Object.entries(REASONS)
    .filter(([, entry]) => entry.refinements?.some((r) => r.grouping === 'separate'))
    .map(([code]) => code),
);

/** Whether any message of `code` can carry a separate cause; the others never need reading when grouping. */
export function hasSeparateCauses(code: string): boolean {
  return CODES_WITH_SEPARATE_CAUSES.has(code);
}

/** The cause that gives a problem its own group (`grouping: 'separate'`), or null when it groups with its reason. */
export function separateCause(code: string, message: string): string | null {
  if (!CODES_WITH_SEPARATE_CAUSES.has(code)) return null;
  const refined = findRefinement(code, message);
  return refined && refined.refinement.grouping === 'separate' ? refined.refinement.cause : null;
}

/** The step for a group: the separate cause's, else the reason's. */
export function groupHintFor(code: string, cause: string | null): string {
  const entry = hintEntry(code);
  const refinement = cause ? entry.refinements?.find((r) => r.cause === cause) : undefined;
  return refinement?.groupHint ?? entry.groupHint;
}

/** The title for a group: the separate cause's, else the reason's. */
export function groupTitleFor(code: string, cause: string | null): string {
  const entry = hintEntry(code);
  const refinement = cause ? entry.refinements?.find((r) => r.cause === cause) : undefined;
  return refinement?.title ?? entry.title;
}

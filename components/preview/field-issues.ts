import type { FieldIssue } from '@/lib/api';
import { ApiError } from '../api/fetch-json';

/** Zod's wording for a missing number, said the way a form says it. */
export function readableIssue(message: string): string {
  if (/expected (number|string|boolean), received undefined/.test(message)) return 'required';
  return message.replace(/^Invalid input: /, '');
}

export interface GroupedIssues {
  /** Messages by form key (an input), for issues whose path points at one. */
  byKey: Map<string, string[]>;
  /** Issues that point at no input: shown above the form's fields. */
  unplaced: { path: string; message: string }[];
}

/** A 400's field issues, grouped by the input each one names (`keyOf` maps an issue path to a form key). */
export function groupIssues(error: unknown, keyOf: (path: string) => string | null): GroupedIssues {
  const byKey = new Map<string, string[]>();
  const unplaced: GroupedIssues['unplaced'] = [];
  const issues: readonly FieldIssue[] = error instanceof ApiError && error.status === 400 ? (error.issues ?? []) : [];
  for (const issue of issues) {
    const message = readableIssue(issue.message);
    const key = keyOf(issue.path);
    if (key === null) unplaced.push({ path: issue.path, message });
    else byKey.set(key, [...(byKey.get(key) ?? []), message]);
  }
  return { byKey, unplaced };
}

/** Whether the error is a 400 with field issues (shown next to the inputs rather than as a page error). */
export function isFieldError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400;
}

import { matchesSelector, parseSelector, SelectorParseError } from '@/lib/k8s/selector';
import { statusErrors } from './status';

/** `?labelSelector=` for list and watch, parsed as apimachinery does; a parse error is a 400, as the apiserver answers. */
export function labelMatcher(input: string): (labels: Record<string, string>) => boolean {
  if (!input.trim()) return () => true;
  try {
    const selector = parseSelector(input);
    return (labels) => matchesSelector(selector, labels);
  } catch (err) {
    if (err instanceof SelectorParseError) throw statusErrors.badRequest(`unable to parse requirement: ${err.message}`);
    throw err;
  }
}

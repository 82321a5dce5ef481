/**
 * The subset of kubectl's JSONPath that CRD printer columns use: `.a.b`, `.a[0]`, and filters
 * `[?(@.type=="Ready")]`. Returns the first match, as the apiserver's column printer does.
 */
export function evalJsonPath(root: unknown, path: string): unknown {
  const steps = tokenize(path.replace(/^\{|\}$/g, ''));
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || value === undefined) continue;
      if (step.kind === 'field') {
        if (typeof value === 'object' && !Array.isArray(value)) next.push((value as Record<string, unknown>)[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(value)) next.push(step.index < 0 ? value[value.length + step.index] : value[step.index]);
      } else if (step.kind === 'filter') {
        if (Array.isArray(value)) {
          for (const item of value) {
            if (item && typeof item === 'object' && String((item as Record<string, unknown>)[step.field]) === step.value) next.push(item);
          }
        }
      } else if (Array.isArray(value)) {
        next.push(...(value as unknown[]));
      }
    }
    current = next.filter((v) => v !== undefined);
  }
  return current[0];
}

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'filter'; field: string; value: string };

function tokenize(path: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    const ch = path[i];
    if (ch === '.') {
      i++;
      let name = '';
      while (i < path.length && path[i] !== '.' && path[i] !== '[') name += path[i++];
      if (name === '*') steps.push({ kind: 'wildcard' });
      else if (name) steps.push({ kind: 'field', name });
    } else if (ch === '[') {
      const end = path.indexOf(']', i);
      if (end < 0) throw new Error(`unterminated [ in JSONPath ${path}`);
      const inner = path.slice(i + 1, end);
      i = end + 1;
      const filter = /^\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)$/.exec(inner);
      if (filter) steps.push({ kind: 'filter', field: filter[1] ?? '', value: filter[2] ?? '' });
      else if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else steps.push({ kind: 'field', name: inner.replace(/^['"]|['"]$/g, '') });
    } else {
      throw new Error(`unexpected ${ch} in JSONPath ${path}`);
    }
  }
  return steps;
}

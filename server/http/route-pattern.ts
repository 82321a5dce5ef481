import 'server-only';

type Params = Record<string, string | string[] | undefined>;

/**
 * The route's pattern (`/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]`) from the request's path
 * and Next's params, for a metric label that stays bounded: each dynamic segment becomes its `[name]`
 * (a catch-all `[...name]`), matched in the params' order, which is the route's. If a param cannot be
 * placed, the answer is `(unmatched)` rather than a path that would carry a user's value.
 */
export function toRoutePattern(pathname: string, params: Params | undefined): string {
  const segments = pathname.split('/').filter(Boolean);
  const entries = Object.entries(params ?? {}).filter((e): e is [string, string | string[]] => e[1] !== undefined);
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i < segments.length; i++) {
    const entry = entries[next];
    if (entry) {
      const [key, value] = entry;
      const rest = segments.slice(i);
      if (Array.isArray(value) && value.length === rest.length && rest.every((segment, j) => sameSegment(segment, value[j] ?? ''))) {
        // A catch-all takes the rest of the path.
        out.push(`[...${key}]`);
        next += 1;
        break;
      }
      if (!Array.isArray(value) && sameSegment(segments[i] ?? '', value)) {
        out.push(`[${key}]`);
        next += 1;
        continue;
      }
    }
    out.push(segments[i] ?? '');
  }
  if (next < entries.length) return '(unmatched)';
  return `/${out.join('/')}`;
}

function sameSegment(raw: string, value: string): boolean {
  if (raw === value) return true;
  try {
    return decodeURIComponent(raw) === value;
  } catch {
    return false;
  }
}

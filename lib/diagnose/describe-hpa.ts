import type { Condition, HorizontalPodAutoscaler, MetricSpec, MetricStatus } from '@/lib/k8s/types';

/**
 * `kubectl describe hpa` / `oc describe hpa` text back into the autoscaling/v2 object, as far as the text
 * holds it. The layouts are those of k8s.io/kubectl pkg/describe/describe.go:
 * - describeHorizontalPodAutoscalerV2 (kubectl 1.23+, and the v2beta2/v2beta1 describers before it, which
 *   print the same lines): Reference, `Metrics: ( current / target )` with one line per metric, Min/Max
 *   replicas, Behavior, `<Kind> pods: N current / M desired`, the Conditions table, Events;
 * - describeHorizontalPodAutoscalerV1: `Target CPU utilization: N%`, `Current CPU utilization: N% | <unset>`,
 *   and no conditions at all;
 * - the Events table, new (`Type Reason Age From Message`) or old (`FirstSeen LastSeen Count From …`).
 * What real pastes do to that text is undone first: tabs (tabwriter output copied raw), a common indent or
 * `# ` comment prefix on every line, hard-wrapped messages, a paste that starts or ends mid-way.
 */

export interface DescribedHpa {
  hpa: HorizontalPodAutoscaler;
  /** Sentences for what the text lacks. */
  unread: string[];
  /** The text held a Conditions table, or proves there is none (a complete describe prints the table whenever status has conditions). */
  conditionsKnown: boolean;
}

const FIELD = /^([A-Z][A-Za-z ]*?):(?:\s+(.*))?$/;
const TOP_KEYS = new Set([
  'Name',
  'Namespace',
  'Labels',
  'Annotations',
  'CreationTimestamp',
  'Reference',
  'Metrics',
  'Min replicas',
  'Max replicas',
  'Behavior',
  'Conditions',
  'Events',
  'Target CPU utilization',
  'Current CPU utilization',
]);
const CONDITION_ROW = /^(\S+)\s+(True|False|Unknown)\s+(\S+)(?:\s+(.*))?$/;

/** Whether the text looks like describe output of an HPA. */
export function looksLikeDescribe(text: string): boolean {
  return (
    /^[\s#>]*(Reference|Min replicas|Max replicas|Metrics|Target CPU utilization|Conditions):/m.test(text) ||
    /^[\s#>]*\S+\s+(True|False|Unknown)\s+(SucceededGetScale|ValidMetricFound|FailedGet\w+|DesiredWithinRange|TooManyReplicas|ReadyForNewScale|ScaleDownStabilized)\b/m.test(
      text,
    )
  );
}

/** Lines with tabs expanded, the common prefix (indent, `# `, `> `) removed, trailing blanks dropped. */
export function normalizeLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\t/g, '    ').replace(/\s+$/, ''));
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  const prefixOf = (l: string): string => /^[\s#>]*/.exec(l)?.[0] ?? '';
  // The prefix of the top-level field lines (`Name:`, `Reference:` …) is the block's indent.
  const anchors = nonEmpty.filter((l) => {
    const m = FIELD.exec(l.slice(prefixOf(l).length));
    return m !== null && TOP_KEYS.has(m[1] ?? '');
  });
  let prefix = anchors.length > 0 ? prefixOf(anchors[0] ?? '') : '';
  for (const a of anchors) {
    const p = prefixOf(a);
    while (!p.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l.replace(/^[\s#>]+/, '')));
}

interface Block {
  key: string;
  value: string;
  body: string[];
}

function blocks(lines: readonly string[]): { blocks: Block[]; leading: string[] } {
  const out: Block[] = [];
  const leading: string[] = [];
  for (const line of lines) {
    const m = /^\S/.test(line) ? FIELD.exec(line) : null;
    if (m) {
      out.push({ key: m[1] ?? '', value: (m[2] ?? '').trim(), body: [] });
      continue;
    }
    const last = out.at(-1);
    if (last) last.body.push(line);
    else leading.push(line);
  }
  return { blocks: out, leading };
}

/** `Deployment/php-apache` → kind and name. */
function reference(value: string): { kind: string; name: string } | null {
  const m = /^([^/\s]+)\/(\S+)$/.exec(value);
  return m ? { kind: m[1] ?? '', name: m[2] ?? '' } : null;
}

function int(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number.parseInt(v, 10);
  return Number.isNaN(n) ? undefined : n;
}

/** One `Metrics:` line: `<description>:  <current> / <target>`, as describeHorizontalPodAutoscalerV2 prints each source. */
export function parseMetricLine(line: string): { spec: MetricSpec; status: MetricStatus | null } | null {
  const m = /^\s*(.+?):\s+(\S.*?)\s+\/\s+(\S+)\s*$/.exec(line);
  if (!m) return null;
  const [, desc = '', current = '', target = ''] = m;
  const unknown = current === '<unknown>' || current === '<unset>';
  const pct = (s: string): number | undefined => int(/^(-?\d+)%$/.exec(s)?.[1]);
  let r: RegExpExecArray | null;
  // resource <name> [of container "<c>"] on pods  (as a percentage of request):  N% (raw) / T%
  if ((r = /^resource (\S+?)(?: of container "([^"]*)")? on pods\s+\(as a percentage of request\)$/.exec(desc))) {
    const [, name = '', container] = r;
    const cur = /^(-?\d+)% \((\S+)\)$/.exec(current);
    const target_ = { type: 'Utilization', averageUtilization: pct(target) };
    const currentValue = cur ? { averageUtilization: int(cur[1]), averageValue: cur[2] } : null;
    return container === undefined
      ? {
          spec: { type: 'Resource', resource: { name, target: target_ } },
          status: currentValue && !unknown ? { type: 'Resource', resource: { name, current: currentValue } } : null,
        }
      : {
          spec: { type: 'ContainerResource', containerResource: { name, container, target: target_ } },
          status:
            currentValue && !unknown ? { type: 'ContainerResource', containerResource: { name, container, current: currentValue } } : null,
        };
  }
  // resource <name> [of container "<c>"] on pods:  <avg> / <avg>
  if ((r = /^resource (\S+?)(?: of container "([^"]*)")? on pods$/.exec(desc))) {
    const [, name = '', container] = r;
    const target_ = { type: 'AverageValue', averageValue: target };
    return container === undefined
      ? {
          spec: { type: 'Resource', resource: { name, target: target_ } },
          status: unknown ? null : { type: 'Resource', resource: { name, current: { averageValue: current } } },
        }
      : {
          spec: { type: 'ContainerResource', containerResource: { name, container, target: target_ } },
          status: unknown
            ? null
            : { type: 'ContainerResource', containerResource: { name, container, current: { averageValue: current } } },
        };
  }
  // "<metric>" on pods:  <avg> / <avg>
  if ((r = /^"([^"]*)" on pods$/.exec(desc))) {
    const metric = { name: r[1] ?? '' };
    return {
      spec: { type: 'Pods', pods: { metric, target: { type: 'AverageValue', averageValue: target } } },
      status: unknown ? null : { type: 'Pods', pods: { metric, current: { averageValue: current } } },
    };
  }
  // "<metric>" on <Kind>/<name> (target value|target average value):  <v> / <v>
  if ((r = /^"([^"]*)" on ([^/\s]+)\/(\S+) \(target (average )?value\)$/.exec(desc))) {
    const metric = { name: r[1] ?? '' };
    const describedObject = { kind: r[2] ?? '', name: r[3] ?? '' };
    const average = r[4] !== undefined;
    return {
      spec: {
        type: 'Object',
        object: {
          metric,
          describedObject,
          target: average ? { type: 'AverageValue', averageValue: target } : { type: 'Value', value: target },
        },
      },
      status: unknown
        ? null
        : { type: 'Object', object: { metric, describedObject, current: average ? { averageValue: current } : { value: current } } },
    };
  }
  // "<metric>" [(selector)] (target value|target average value):  <v> / <v>  (External)
  if ((r = /^"([^"]*)"(?: \(.*\))? \(target (average )?value\)$/.exec(desc))) {
    const metric = { name: r[1] ?? '' };
    const average = r[2] !== undefined;
    return {
      spec: {
        type: 'External',
        external: { metric, target: average ? { type: 'AverageValue', averageValue: target } : { type: 'Value', value: target } },
      },
      status: unknown
        ? null
        : { type: 'External', external: { metric, current: average ? { averageValue: current } : { value: current } } },
    };
  }
  return null;
}

/**
 * The Conditions table: header, dashes, one row per condition. A line that is not a row continues the
 * message above it (a hard wrap): indented, it was wrapped at a space; at column 0, by a terminal at its
 * width, possibly mid-word, so it is joined as is.
 */
export function parseConditionsTable(body: readonly string[]): Condition[] {
  const conditions: Condition[] = [];
  for (const raw of body) {
    const line = raw.trimStart();
    if (line === '' || /^Type\s+Status\s+Reason/.test(line) || /^-+\s+-+/.test(line)) continue;
    const row = CONDITION_ROW.exec(line);
    if (row) {
      conditions.push({ type: row[1] ?? '', status: row[2] ?? '', reason: row[3] ?? '', message: (row[4] ?? '').trim() });
      continue;
    }
    const last = conditions.at(-1);
    if (last) last.message = /^\s/.test(raw) ? `${last.message ?? ''} ${line}`.trim() : `${last.message ?? ''}${line}`;
  }
  return conditions;
}

/** RFC 1123 with numeric zone, as describe prints CreationTimestamp; null when it does not parse. */
function creationTime(value: string): string | null {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Every HPA in a describe paste (`kubectl describe hpa` without a name prints several, one after another). */
export function parseDescribe(text: string): DescribedHpa[] {
  const lines = normalizeLines(text);
  // Split at each `Name:` line; a paste starting mid-way gives a first part without one.
  const parts: string[][] = [];
  for (const line of lines) {
    if (/^Name:\s/.test(line) || parts.length === 0) parts.push([]);
    parts.at(-1)?.push(line);
  }
  return parts.map(describeOne).filter((d): d is DescribedHpa => d !== null);
}

function describeOne(lines: string[]): DescribedHpa | null {
  const { blocks: bs } = blocks(lines);
  const get = (key: string): Block | undefined => bs.find((b) => b.key === key);
  const podsLine = bs.find((b) => / pods$/.test(b.key) && /current \/ .* desired/.test(b.value));
  const conditionsBlock = get('Conditions');
  if (!get('Reference') && !get('Metrics') && !conditionsBlock && !get('Target CPU utilization') && !podsLine) return null;

  const unread: string[] = [];
  const name = get('Name')?.value ?? '';
  const namespace = get('Namespace')?.value;
  if (!name) unread.push('no Name line: the paste starts after it, so the autoscaler is shown without its name');
  if (!namespace) unread.push('no Namespace line: the namespace is not in this paste');
  const ref = reference(get('Reference')?.value ?? '');
  if (!ref) unread.push('no Reference line: the scale target is not in this paste');

  const specMetrics: MetricSpec[] = [];
  const currentMetrics: MetricStatus[] = [];
  const metricsBlock = get('Metrics');
  if (metricsBlock) {
    for (const line of metricsBlock.body) {
      if (line.trim() === '') continue;
      const parsed = parseMetricLine(line);
      if (!parsed) {
        unread.push(`a Metrics line could not be read: "${line.trim().slice(0, 120)}"`);
        continue;
      }
      specMetrics.push(parsed.spec);
      if (parsed.status) currentMetrics.push(parsed.status);
    }
  }
  // describeHorizontalPodAutoscalerV1: the spec's cpu target and the status's current utilization.
  const v1Target = get('Target CPU utilization');
  if (v1Target) {
    const target = int(/^(\d+)%/.exec(v1Target.value)?.[1]);
    if (target !== undefined)
      specMetrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } });
    const current = int(/^(\d+)%/.exec(get('Current CPU utilization')?.value ?? '')?.[1]);
    if (current !== undefined)
      currentMetrics.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } });
  }
  if (!metricsBlock && !v1Target) unread.push('no Metrics block: the metric targets and current values are not in this paste');

  const pods = /^(\d+) current \/ (\d+) desired$/.exec(podsLine?.value ?? '');
  const conditions = conditionsBlock ? parseConditionsTable(conditionsBlock.body) : [];
  // A complete describe prints Conditions whenever status has some, before Events; without the Events
  // block the paste may simply end before the table.
  const complete = get('Events') !== undefined;
  const conditionsKnown = conditionsBlock !== undefined || (complete && !v1Target);
  if (v1Target && !conditionsBlock)
    unread.push(
      'the autoscaling/v1 describe layout prints no conditions: the verdict needs them (paste kubectl get hpa -o yaml, whose conditions annotation holds them)',
    );
  else if (!conditionsKnown) unread.push('no conditions in this paste: the verdict needs the Conditions block');

  const created = creationTime(get('CreationTimestamp')?.value ?? '');
  const minReplicas = int(get('Min replicas')?.value);
  const maxReplicas = int(get('Max replicas')?.value);
  if (maxReplicas === undefined) unread.push('no Max replicas line: maxReplicas is not in this paste');

  const hpa = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, ...(namespace ? { namespace } : {}), ...(created ? { creationTimestamp: created } : {}) },
    spec: {
      scaleTargetRef: { kind: ref?.kind ?? '', name: ref?.name ?? '' },
      ...(minReplicas !== undefined ? { minReplicas } : {}),
      ...(maxReplicas !== undefined ? { maxReplicas } : {}),
      metrics: specMetrics,
    },
    status: {
      ...(pods ? { currentReplicas: Number(pods[1]), desiredReplicas: Number(pods[2]) } : {}),
      currentMetrics,
      conditions,
    },
  } as unknown as HorizontalPodAutoscaler;
  if (!pods) unread.push('no "pods: N current / M desired" line: the replica counts are not in this paste');
  return { hpa, unread, conditionsKnown };
}

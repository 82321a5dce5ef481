import { statusErrors } from './status';
import { text } from '../json';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/**
 * `?fieldSelector=` as kube-apiserver parses it (`fields.ParseSelector`): comma-separated `k=v`, `k==v`,
 * `k!=v`, with backslash escapes; each field must be one the resource supports or the request is a 400
 * "field label not supported".
 */
export function parseFieldSelector(input: string, supported: readonly string[], kind: string): FieldRequirement[] {
  if (!input.trim()) return [];
  const out: FieldRequirement[] = [];
  for (const part of splitUnescaped(input, ',')) {
    const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw statusErrors.badRequest(`invalid selector: '${input}'; can't understand '${part}'`);
    const field = (m[1] ?? '').trim();
    if (!supported.includes(field)) throw statusErrors.badRequest(`field label not supported: ${field}`);
    out.push({ field, op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3] ?? '') });
  }
  void kind;
  return out;
}

export function matchesFields(object: unknown, requirements: readonly FieldRequirement[]): boolean {
  return requirements.every((r) => {
    const actual = fieldValue(object, r.field);
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}

function fieldValue(object: unknown, field: string): string {
  let v: unknown = object;
  for (const k of field.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  if (field === 'source' && v && typeof v === 'object') v = (v as { component?: unknown }).component;
  return text(v);
}

function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\' && i + 1 < s.length) {
      cur += ch + s[i + 1];
      i++;
    } else if (ch === sep) {
      parts.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  parts.push(cur);
  return parts;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

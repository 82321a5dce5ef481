/** Rewrites the generated reason table of docs/health.md from the reason registry: `npm run docs:health`. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toReasonTable } from '../lib/triage/reason-table';

const file = path.resolve(import.meta.dirname, '../docs/health.md');
const doc = readFileSync(file, 'utf8');
const next = doc.replace(/(<!-- reasons:begin -->\n)[\s\S]*?(<!-- reasons:end -->)/, `$1${toReasonTable()}\n$2`);
if (next === doc) console.info('docs/health.md is up to date');
else {
  writeFileSync(file, next);
  console.info('docs/health.md: reason table rewritten');
}

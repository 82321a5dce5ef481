// The server's built chunks rewritten so that V8 can hold their source one byte a character.
//
// V8 keeps every script's source text for as long as the process runs (functions compile lazily from it), and keeps a
// string one byte a character only when every character is Latin-1 (U+0000–U+00FF). One arrow, dash or ≤ in a
// user-facing message — or a ✅ in a bundled library — makes the whole chunk a two-byte string: at 100,000 autoscalers
// the BFF held 8.9 MiB of its own chunks' sources for 4.5 MiB of text (docs/performance.md). Turbopack's minifier
// writes such characters raw and has no option to escape them (SWC's `ascii_only` is not exposed by Next.js), so this
// pass runs after the compile (`compiler.runAfterProductionCompile` in next.config.js, before the standalone copy):
// each character above U+00FF becomes the escape that means the same where it stands, found by parsing the chunk with
// acorn — `\uXXXX` in a string, an untagged template or a regular expression (`\u{…}` in a `u`/`v` one), `\u{…}` in an
// identifier, anything in a comment. A chunk where the meaning could change (a tagged template, whose raw text its tag
// can read; a character already escaped by a backslash) or that acorn cannot parse is left as it is and reported. Each
// rewrite is checked by parsing it again: the same tokens, the same values. The chunk's source map is shifted by the
// columns each escape adds, so stack traces still point at the right TypeScript.
//
// Written here rather than taken from a package: the minifiers that can escape (terser, esbuild, SWC's own) would
// re-minify Turbopack's output and drop its source map's link to the TypeScript; this changes only the characters.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import * as acorn from 'acorn';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/** A character V8 cannot store in a one-byte string (`WIDE` finds each: `matchAll` works on a copy, so no state). */
const HAS_WIDE = /[^\u0000-\u00ff]/u;
const WIDE = new RegExp(HAS_WIDE.source, 'gu');

const hex4 = (unit) => `\\u${unit.toString(16).padStart(4, '0')}`;
/** Each UTF-16 unit as `\uXXXX`: what a string, a template or a non-Unicode regular expression reads back unchanged. */
const unitEscapes = (ch) => Array.from({ length: ch.length }, (_, i) => hex4(ch.charCodeAt(i))).join('');
/** One code point as `\u{X}`: valid in identifiers and Unicode-mode regular expressions. */
const codePointEscape = (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`;

function parse(source, tokens, comments) {
  const options = {
    ecmaVersion: 'latest',
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    onToken: tokens,
    onComment: comments,
  };
  try {
    return acorn.parse(source, { ...options, sourceType: 'script' });
  } catch {
    tokens?.splice(0);
    comments?.splice(0);
    return acorn.parse(source, { ...options, sourceType: 'module' });
  }
}

/** The [start, end) of every tagged template's quasi in the tree. */
function taggedTemplates(node, out = []) {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const child of node) taggedTemplates(child, out);
    return out;
  }
  if (node.type === 'TaggedTemplateExpression') out.push([node.quasi.start, node.quasi.end]);
  for (const key of Object.keys(node)) if (key !== 'loc') taggedTemplates(node[key], out);
  return out;
}

/** What a token means, for the check that a rewrite changed no token. */
function tokenMeaning(t) {
  const label = t.type.label;
  if (label === 'regexp') return `${label}:${t.value.flags}`;
  if (label === 'string' || label === 'template' || label === 'name' || label === 'privateId') return `${label}:${t.value}`;
  return label;
}

/**
 * `source` with every character above U+00FF escaped, and where each escape went (`edits`: the position in `source`,
 * the UTF-16 units it replaced, the units written), or `skipped` with the reason it was left as it was.
 * @param {string} source
 * @returns {{ source: string; edits: { at: number; was: number; now: number }[]; skipped?: string }}
 */
export function oneByteSource(source) {
  if (!HAS_WIDE.test(source)) return { source, edits: [] };
  const unchanged = (skipped) => ({ source, edits: [], skipped });
  const tokens = [];
  const comments = [];
  let ast;
  try {
    ast = parse(source, tokens, comments);
  } catch (err) {
    return unchanged(`acorn could not parse it (${err instanceof Error ? err.message : String(err)})`);
  }
  const tagged = taggedTemplates(ast);
  const regions = [
    ...tokens.map((t) => ({ start: t.start, end: t.end, kind: t.type.label, flags: t.type.label === 'regexp' ? t.value.flags : '' })),
    ...comments.map((c) => ({ start: c.start, end: c.end, kind: 'comment', flags: '' })),
  ].sort((a, b) => a.start - b.start);
  const regionAt = (at) => {
    let lo = 0;
    let hi = regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = regions[mid];
      if (at < r.start) hi = mid - 1;
      else if (at >= r.end) lo = mid + 1;
      else return r;
    }
    return null;
  };

  const parts = [];
  const edits = [];
  let copied = 0;
  for (const match of source.matchAll(WIDE)) {
    const ch = match[0];
    const at = match.index;
    const region = regionAt(at);
    const where = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()} at ${at}`;
    if (!region) return unchanged(`${where} is outside any token`);
    let backslashes = 0;
    while (source[at - 1 - backslashes] === '\\') backslashes++;
    if (region.kind !== 'comment' && backslashes % 2 === 1) return unchanged(`${where} is escaped by a backslash`);
    let escape;
    if (region.kind === 'comment' || region.kind === 'string') escape = unitEscapes(ch);
    else if (region.kind === 'template') {
      if (tagged.some(([s, e]) => at >= s && at < e)) return unchanged(`${where} is in a tagged template, whose tag can read its raw text`);
      escape = unitEscapes(ch);
    } else if (region.kind === 'regexp') escape = /[uv]/.test(region.flags) ? codePointEscape(ch) : unitEscapes(ch);
    else if (region.kind === 'name' || region.kind === 'privateId') escape = codePointEscape(ch);
    else return unchanged(`${where} is in a ${region.kind} token`);
    parts.push(source.slice(copied, at), escape);
    edits.push({ at, was: ch.length, now: escape.length });
    copied = at + ch.length;
  }
  parts.push(source.slice(copied));
  const rewritten = parts.join('');

  // The check: the rewrite parses to the same tokens with the same values (strings, templates' cooked text, names).
  const again = [];
  try {
    parse(rewritten, again);
  } catch (err) {
    return unchanged(`the rewrite did not parse (${err instanceof Error ? err.message : String(err)})`);
  }
  if (again.length !== tokens.length) return unchanged('the rewrite has other tokens');
  for (let i = 0; i < tokens.length; i++)
    if (tokenMeaning(tokens[i]) !== tokenMeaning(again[i])) return unchanged(`the rewrite changed token ${i} (${tokenMeaning(tokens[i])})`);
  if (HAS_WIDE.test(rewritten)) return unchanged('characters above U+00FF remain');
  return { source: rewritten, edits };
}

/**
 * A source map's `mappings` for the rewritten file: each generated column moved right by the units the escapes before
 * it on its line added. (Columns count UTF-16 units; lines end at `\n`.)
 * @param {string} mappings
 * @param {string} source the file before the rewrite
 * @param {{ at: number; was: number; now: number }[]} edits
 */
export function shiftMappings(mappings, source, edits) {
  if (edits.length === 0) return mappings;
  const lines = decode(mappings);
  const byLine = new Map();
  let line = 0;
  let lineStart = 0;
  let scanned = 0;
  for (const edit of edits) {
    for (let nl = source.indexOf('\n', scanned); nl !== -1 && nl < edit.at; nl = source.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    scanned = edit.at;
    const list = byLine.get(line) ?? [];
    list.push({ column: edit.at - lineStart, added: edit.now - edit.was });
    byLine.set(line, list);
  }
  for (const [n, list] of byLine) {
    const segments = lines[n];
    if (!segments) continue;
    for (const segment of segments) {
      let added = 0;
      for (const e of list) if (e.column < segment[0]) added += e.added;
      segment[0] += added;
    }
  }
  return encode(lines);
}

function* jsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(full);
    else if (entry.isFile() && /\.(c|m)?js$/.test(entry.name)) yield full;
  }
}

/**
 * Rewrites every script under `serverDir` (a build's `server/` directory) and its source map; returns what it did.
 * @param {string} serverDir
 */
export function rewriteServerChunks(serverDir) {
  const summary = { files: 0, rewritten: 0, escapes: 0, skipped: [] };
  if (!existsSync(serverDir)) return summary;
  for (const file of jsFiles(serverDir)) {
    summary.files++;
    const before = readFileSync(file, 'utf8');
    const { source, edits, skipped } = oneByteSource(before);
    if (skipped) summary.skipped.push(`${path.relative(serverDir, file)}: ${skipped}`);
    if (edits.length === 0) continue;
    const mapFile = `${file}.map`;
    if (existsSync(mapFile)) {
      const map = JSON.parse(readFileSync(mapFile, 'utf8'));
      if (typeof map.mappings === 'string') {
        map.mappings = shiftMappings(map.mappings, before, edits);
        writeFileSync(mapFile, JSON.stringify(map));
      }
    }
    writeFileSync(file, source);
    summary.rewritten++;
    summary.escapes += edits.length;
  }
  return summary;
}

/** next.config.js's `compiler.runAfterProductionCompile`: rewrites the build's server chunks and says so. */
export async function afterProductionCompile({ distDir }) {
  const summary = rewriteServerChunks(path.join(distDir, 'server'));
  console.info(
    `[autoscope] server chunks one byte a character: ${summary.rewritten} of ${summary.files} scripts rewritten (${summary.escapes} characters escaped)`,
  );
  for (const line of summary.skipped) console.warn(`[autoscope] left two-byte: ${line}`);
}

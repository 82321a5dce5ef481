import vm from 'node:vm';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { oneByteSource, shiftMappings } from './one-byte-chunks.mjs';

const WIDE = /[^\u0000-\u00ff]/u;

/** What a chunk-like script evaluates to: its `module.exports`. */
function run(source: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  vm.runInNewContext(source, { module });
  return module.exports;
}

const chunk = [
  '// ✅ a comment, é stays',
  'const Δx = 2, café = "é";',
  'const arrow = "a → b ≤ c — d", single = \'…\', astral = "🚀", latin = "naïve";',
  'const tpl = `${Δx} ≠ ${café} ✅`;',
  'const plain = /[–—]+|🚀/, unicode = /🚀{2}|[≤≥]/u, sets = /[\\p{L}--[Δ]]/v;',
  'class K { #ñΩ = 3; get v() { return this.#ñΩ; } }',
  'module.exports = { Δx, arrow, single, astral, latin, tpl, plain, unicode, sets, k: new K().v, esc: "\\\\→" };',
].join('\n');

describe('oneByteSource', () => {
  it('escapes every character above U+00FF, and the script means what it meant', () => {
    const { source, edits, skipped } = oneByteSource(chunk);
    expect(skipped).toBeUndefined();
    expect(WIDE.test(source)).toBe(false);
    expect(source).toContain('café'); // Latin-1 is one byte already: left as it is
    expect(edits.length).toBeGreaterThan(10);
    const before = run(chunk);
    const after = run(source);
    for (const key of ['Δx', 'arrow', 'single', 'astral', 'latin', 'tpl', 'k', 'esc']) expect(after[key], key).toEqual(before[key]);
    const samples = ['–—', 'x', '🚀', '🚀🚀', '\ud83d', '≤', '≥', 'Δ', 'a', '—🚀'];
    for (const key of ['plain', 'unicode', 'sets']) {
      const [was, now] = [before[key] as RegExp, after[key] as RegExp];
      expect(now.flags).toBe(was.flags);
      for (const s of samples) expect(now.test(s), `${key} on ${s}`).toBe(was.test(s));
    }
  });

  it('leaves a script without wide characters alone', () => {
    const plain = 'module.exports = { a: "café", b: 1 };';
    expect(oneByteSource(plain)).toEqual({ source: plain, edits: [] });
  });

  it('leaves a tagged template as it is: its tag can read the raw text', () => {
    const tagged = 'module.exports = String.raw`a → b`;';
    const out = oneByteSource(tagged);
    expect(out.source).toBe(tagged);
    expect(out.skipped).toMatch(/tagged template/);
    expect(run(tagged)).toBe('a → b');
  });

  it('leaves a character escaped by a backslash as it is', () => {
    const escaped = "module.exports = '\\→';";
    const out = oneByteSource(escaped);
    expect(out.source).toBe(escaped);
    expect(out.skipped).toMatch(/backslash/);
  });

  it('leaves what acorn cannot parse as it is', () => {
    const broken = 'module.exports = "→" +;';
    const out = oneByteSource(broken);
    expect(out.source).toBe(broken);
    expect(out.skipped).toMatch(/could not parse/);
  });
});

describe('shiftMappings', () => {
  it('moves each generated column by what the escapes before it on its line added', () => {
    // Line 0: `a("→");b("≤→")` — segments at a (0), the string (2), its arrow (3), b (7), b's string (9); line 1 at c
    // (0) and d (5).
    const source = 'a("→");b("≤→")\nc(1);d("🚀")';
    const mappings = encode([
      [
        [0, 0, 0, 0],
        [2, 0, 0, 2],
        [3, 0, 0, 3],
        [7, 0, 1, 0],
        [9, 0, 1, 2],
      ],
      [
        [0, 0, 2, 0],
        [5, 0, 3, 0],
      ],
    ]);
    const { source: rewritten, edits } = oneByteSource(source);
    const shifted = decode(shiftMappings(mappings, source, edits));
    const columns = shifted.map((line) => line.map((s) => s[0]));
    // The arrow's escape starts where the arrow was; it adds 5 before b, and two more (+10) come after b's string
    // opens; the astral character (+10) is after d.
    expect(columns).toEqual([
      [0, 2, 3, 12, 14],
      [0, 5],
    ]);
    const lines = rewritten.split('\n');
    expect(lines[0]?.[12]).toBe('b');
    expect(lines[1]?.[5]).toBe('d');
    // What each segment points at in the rewrite is what it pointed at before.
    expect(shifted.map((line) => line.map((s) => s.slice(1)))).toEqual(decode(mappings).map((line) => line.map((s) => s.slice(1))));
  });
});

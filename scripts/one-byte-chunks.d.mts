/** Where one escape went: its position in the original source, the UTF-16 units it replaced, the units written. */
export interface Edit {
  at: number;
  was: number;
  now: number;
}

/** `source` with every character above U+00FF escaped where it stands, or unchanged with the reason (`skipped`). */
export function oneByteSource(source: string): { source: string; edits: Edit[]; skipped?: string };

/** A source map's `mappings` with each generated column moved by what the escapes before it on its line added. */
export function shiftMappings(mappings: string, source: string, edits: readonly Edit[]): string;

/** Rewrites every script under a build's `server/` directory and its source map. */
export function rewriteServerChunks(serverDir: string): { files: number; rewritten: number; escapes: number; skipped: string[] };

/** next.config.js's `compiler.runAfterProductionCompile`. */
export function afterProductionCompile(metadata: { projectDir: string; distDir: string }): Promise<void>;

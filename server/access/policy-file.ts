import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { AccessPolicy } from '@/lib/access';
import { toAccessPolicy } from '@/lib/access';
import { log } from '../log';

/** A policy file that cannot be used; the message names the file, the line and what is wrong. */
export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyFileError';
  }
}

/** The 1-based line of the node at `path` in the document, or of its nearest ancestor that exists. */
function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}

/** Parses and validates a policy (YAML); every problem is reported with its line. */
export function parsePolicyYaml(text: string, file: string): AccessPolicy {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = counter.linePos(yamlError.pos[0]).line;
    throw new PolicyFileError(`${file}:${line}: ${yamlError.message.split('\n')[0] ?? 'invalid YAML'}`);
  }
  const parsed = toAccessPolicy(doc.toJS());
  if (parsed.ok) return parsed.policy;
  const lines = parsed.issues.map(
    (i) => `${file}:${lineOf(doc, counter, i.path)}: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`,
  );
  throw new PolicyFileError(lines.join('; '));
}

/**
 * The policy from its file, read at start and again whenever the file changes (its mtime and size are
 * looked at most once a second). A change that does not validate is logged with its line and the last good
 * policy stays in force; a file that is bad at start stops Autoscope from starting.
 */
export class PolicySource {
  private policy: AccessPolicy;
  private stamp: string;
  private checkedAt = 0;
  /** Bumped on each successful reload, so callers can cache per version. */
  version = 1;

  constructor(readonly file: string) {
    this.stamp = this.currentStamp();
    this.policy = this.read();
  }

  private currentStamp(): string {
    try {
      const s = statSync(this.file);
      return `${s.mtimeMs}:${s.size}`;
    } catch (err) {
      throw new PolicyFileError(`${this.file}: cannot read the policy file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }

  private read(): AccessPolicy {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      throw new PolicyFileError(`${this.file}: cannot read the policy file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return parsePolicyYaml(text, this.file);
  }

  current(nowMs: number = Date.now()): AccessPolicy {
    if (nowMs - this.checkedAt < 1000) return this.policy;
    this.checkedAt = nowMs;
    try {
      const stamp = this.currentStamp();
      if (stamp === this.stamp) return this.policy;
      this.stamp = stamp;
      this.policy = this.read();
      this.version += 1;
      log.info(`access policy reloaded from ${this.file}: ${this.policy.rules.length} rule(s), defaultRole ${this.policy.defaultRole}`);
    } catch (err) {
      log.error(`access policy not reloaded, the previous one stays in force: ${err instanceof Error ? err.message : String(err)}`);
    }
    return this.policy;
  }
}

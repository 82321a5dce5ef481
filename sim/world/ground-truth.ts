import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Condition } from '@/lib/k8s/types';

export interface Transition {
  at: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  type: string;
  status: string;
  reason: string;
  message: string;
  /**
   * The resourceVersion of the write that made the change (absent for objects whose status the simulator
   * writes elsewhere): a reliability check matches what a client recorded to the object version it saw.
   */
  rv?: string;
}

/** `GroundTruth.recent` keeps at least the last this many transitions (at most twice as many). */
const recentKept = 10_000;

/**
 * Every condition transition the simulator makes, appended as JSON lines, so a reliability test can
 * compare what Autoscope recorded with what happened. A transition is a change of type, status or reason.
 */
export class GroundTruth {
  readonly file: string;
  readonly recent: Transition[] = [];
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.file = path.join(dataDir, 'transitions.jsonl');
  }

  compare(
    base: Omit<Transition, 'type' | 'status' | 'reason' | 'message' | 'at'>,
    before: readonly Condition[] | null | undefined,
    after: readonly Condition[] | null | undefined,
    at: string,
  ): void {
    const old = new Map((before ?? []).map((c) => [c.type, c]));
    const lines: string[] = [];
    for (const c of after ?? []) {
      const prev = old.get(c.type);
      if (prev && prev.status === c.status && (prev.reason ?? '') === (c.reason ?? '')) continue;
      const t: Transition = { ...base, at, type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '' };
      this.recent.push(t);
      lines.push(JSON.stringify(t));
    }
    // Trimmed back to the last 10,000 once it holds twice that: trimmed by one at every push, the splice moved 10,000
    // entries each time and was the simulator's largest cost after its pods' JSON (a 100,000-HPA fleet's transitions).
    if (this.recent.length > 2 * recentKept) this.recent.splice(0, this.recent.length - recentKept);
    if (lines.length) {
      this.pending.push(...lines);
      this.timer ??= setTimeout(() => this.flush(), 500);
    }
  }

  /** Appends what is pending (writes are batched: a fleet of 100,000 HPAs makes many transitions a second). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length) appendFileSync(this.file, `${this.pending.join('\n')}\n`);
    this.pending = [];
  }
}

import 'server-only';

export interface ReachabilityThresholds {
  /** No request answered (refused, timed out, reset) for this long: unreachable. */
  unreachableAfterMs: number;
  /** Requests answered, but every one of them failed (5xx) for this long: unreachable too. */
  failingAfterMs: number;
  /** The error rate is over this window. */
  windowMs: number;
}

export const defaultThresholds: ReachabilityThresholds = { unreachableAfterMs: 10_000, failingAfterMs: 30_000, windowMs: 60_000 };

export type Verdict = 'reachable' | 'degraded' | 'unreachable';

export interface FailureReport {
  /** The server answered (with an error status); false for refused, reset, timed out. A proxy's answer that it cannot reach the cluster behind it is `refused`, whatever this says. */
  answered: boolean;
  /** Connection refused, DNS or TLS failure: the server is not there, no need to wait for the threshold. */
  refused: boolean;
  message: string;
}

/**
 * Whether a cluster is serving, from the outcome of every request made to it. One failed call is not an
 * outage: a cluster is unreachable when nothing answered for `unreachableAfterMs` (or it refuses
 * connections), or when everything that answered failed for `failingAfterMs`; a cluster that answers
 * with some errors is degraded, with its error rate over the last `windowMs`.
 */
export class Reachability {
  private outcomes: { at: number; ok: boolean }[] = [];
  /** How many of `outcomes` failed: every list and triage response reads the rate of every cluster (`errorRate`). */
  private failures = 0;
  lastAnsweredAt: number | null = null;
  /** The last successful request. */
  lastOkAt: number | null = null;
  /** The last time the cluster served anything (a successful request, a watch event, a stream open until then): where an outage begins. */
  lastServedAt: number | null = null;
  lastError: string | null = null;
  lastErrorAt: number | null = null;
  /** The first failure with no answer since. */
  private silentSince: number | null = null;
  /** The first answered failure (a 5xx) with no successful answer since. */
  private failingSince: number | null = null;
  private refused = false;

  constructor(readonly thresholds: ReachabilityThresholds = defaultThresholds) {}

  /**
   * A request succeeded (`request`), a watch delivered an event (`event`: alive, but not counted in the rate),
   * or a watch stream that had opened was cut (`cut`: connected until now, which is where an outage that cut
   * it begins). A cut does not clear a refusal: when a cluster goes away, one informer's refused reconnect
   * can be reported before another informer's cut stream, and the cut says nothing about whether a new
   * connection would be accepted.
   */
  answered(now: number, kind: 'request' | 'event' | 'cut'): void {
    // The failures of an outage that just ended are the outage's, not a degraded cluster's.
    if (kind !== 'cut' && this.verdict(now) === 'unreachable') {
      this.outcomes = [];
      this.failures = 0;
    }
    this.lastAnsweredAt = now;
    this.lastServedAt = now;
    this.silentSince = null;
    if (kind === 'cut') return;
    this.refused = false;
    // Events on a stream opened before the failures began prove the cluster alive, not that it serves
    // requests: only a request that succeeds ends a run of failures.
    if (kind === 'request') {
      this.lastOkAt = now;
      this.failingSince = null;
      this.record(now, true);
    }
  }

  /** Since when nothing has answered (a failed probe, a request that timed out), or null. */
  get silentSinceAt(): number | null {
    return this.silentSince;
  }

  /**
   * A liveness probe (`ClusterWatcher`'s, on a quiet cluster) got an answer: the server is there. It ends silence and
   * nothing else: not counted in the error rate, and a run of 5xx answers or a refused watch stays what it was (the
   * probe asks the server, not its storage or a watch). A successful answer (`ok`) outside a run of failures says the
   * cluster served until now, which is where an outage that follows begins (a quiet cluster's last event may be a
   * minute old); inside one it does not (`/version` answers while the storage behind every other request fails).
   */
  probeAnswered(now: number, ok: boolean): void {
    this.lastAnsweredAt = now;
    if (ok && this.failingSince === null) this.lastServedAt = now;
    this.silentSince = null;
  }

  /**
   * A liveness probe got no answer (timed out, reset) or was refused: silence, the rule for unreachable begins.
   * Not counted in the error rate, whose successes are the data's requests.
   */
  probeFailed(now: number, refused: boolean, message: string): void {
    this.lastError = message;
    this.lastErrorAt = now;
    this.silentSince ??= now;
    if (refused) this.refused = true;
  }

  failed(now: number, failure: FailureReport): void {
    this.record(now, false);
    this.lastError = failure.message;
    this.lastErrorAt = now;
    if (failure.refused) {
      // Refused, DNS, TLS — or a proxy that answered for the cluster behind it that it cannot reach it (a
      // Karmada member): the cluster is not there, whatever status code carried the news.
      this.silentSince ??= now;
      this.refused = true;
    } else if (failure.answered) {
      // Only answers count toward "everything that answered failed": the refusals and silence of an outage
      // that just ended are the outage's, and must not make a returning cluster unreachable again.
      this.failingSince ??= now;
      this.lastAnsweredAt = now;
      this.silentSince = null;
      this.refused = false;
    } else {
      this.silentSince ??= now;
    }
  }

  verdict(now: number): Verdict {
    this.prune(now);
    if (this.refused) return 'unreachable';
    if (this.silentSince !== null && now - this.silentSince >= this.thresholds.unreachableAfterMs) return 'unreachable';
    if (this.failingSince !== null && now - this.failingSince >= this.thresholds.failingAfterMs) return 'unreachable';
    return this.outcomes.some((o) => !o.ok) ? 'degraded' : 'reachable';
  }

  /** Failed requests over all requests in the window (0 when none were made). */
  errorRate(now: number): number {
    this.prune(now);
    if (this.outcomes.length === 0) return 0;
    return this.failures / this.outcomes.length;
  }

  /** Whether the verdict can change with time alone (a pending failure, errors still in the window). */
  pending(now: number): boolean {
    this.prune(now);
    return this.silentSince !== null || this.failingSince !== null || this.failures > 0;
  }

  private record(now: number, ok: boolean): void {
    this.outcomes.push({ at: now, ok });
    if (!ok) this.failures += 1;
    this.prune(now);
  }

  private prune(now: number): void {
    const cutoff = now - this.thresholds.windowMs;
    let drop = 0;
    while (drop < this.outcomes.length && (this.outcomes[drop]?.at ?? 0) < cutoff) drop += 1;
    // A burst of requests cannot grow the window without bound.
    drop = Math.max(drop, this.outcomes.length - 10_000);
    if (drop <= 0) return;
    for (let i = 0; i < drop; i++) if (!this.outcomes[i]?.ok) this.failures -= 1;
    this.outcomes.splice(0, drop);
  }
}

import type { AxeReport } from './axe';

/** A finished scan, and a digest of the state of the document it scanned (see document-state.ts). */
export interface SharedScan {
  state: string;
  report: AxeReport;
}

/**
 * What a capture does about its scan: lead (scan, then tell those who wait) or follow (take the leader's scan if the
 * leader's document turns out to be in the same state as its own, else scan itself).
 */
export type ScanClaim =
  | {
      role: 'lead';
      /** Hands the scan to the followers; null tells them to scan themselves. Only the first call counts. */
      publish(shared: SharedScan | null): void;
    }
  | {
      role: 'follow';
      leader: Promise<SharedScan | null>;
      /** Counts the leader's scan as taken (it served this capture). */
      took(): void;
    };

/** How long a finished scan stays available to captures that come late; the two sides of a pair run together. */
const RETAIN_MS = 60_000;
/** Finished scans kept at most (a report is a few KB). */
const MAX_ENTRIES = 200;

interface Entry {
  result: Promise<SharedScan | null>;
  expiresAt: number;
}

/**
 * One axe-core scan for documents in the same state. Captures that ask for it name a scope (a release check's
 * revision and viewport), and only captures of one scope share. A capture claims a digest of its document's markup
 * as it loads: the first to claim some markup leads, later ones follow and skip loading axe-core. Whether a follower
 * really takes the leader's findings is decided later, on the full state of both documents when they are scanned;
 * a follower whose state differs, or whose leader failed, scans itself.
 */
export class ScanSharing {
  private readonly entries = new Map<string, Entry>();
  /** Captures served by another's scan so far (diagnostics, tests). */
  shared = 0;

  claim(scope: string, markupDigest: string): ScanClaim {
    this.prune();
    const id = `${scope}\n${markupDigest}`;
    const existing = this.entries.get(id);
    if (existing) {
      return {
        role: 'follow',
        leader: existing.result,
        took: () => {
          this.shared += 1;
        },
      };
    }

    const { promise, resolve } = Promise.withResolvers<SharedScan | null>();
    const entry: Entry = { result: promise, expiresAt: Infinity };
    this.entries.set(id, entry);
    let published = false;
    return {
      role: 'lead',
      publish: (shared) => {
        if (published) return;
        published = true;
        resolve(shared);
        // A leader that failed leaves the markup to the next capture that loads it.
        if (shared === null) {
          if (this.entries.get(id) === entry) this.entries.delete(id);
        } else entry.expiresAt = Date.now() + RETAIN_MS;
      },
    };
  }

  /** Claims held now, running or finished (tests). */
  size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
    // Oldest first (insertion order); only finished scans go, so a running lead is never dropped early.
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES) break;
      if (entry.expiresAt !== Infinity) this.entries.delete(id);
    }
  }
}

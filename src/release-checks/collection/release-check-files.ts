import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CaptureResult } from '../../../libs/capture';
import type { SideEvidence } from '../../../libs/compare';
import { ArtifactStore } from '../../artifacts/artifact-store';
import type { ArtifactFileName } from '../dto/release-check-queries.dto';
import type { ReleaseCheckArtifact, Side, SideRecord } from '../entities/release-check-artifact.entity';

/** Every file of a release check lies under this folder of the artifact store, whatever its revision. */
export const releaseCheckFolder = (checkId: string) => `release-checks/${checkId}`;

/** What a file belongs to: one artifact of one revision. */
export interface ArtifactAddress {
  checkId: string;
  revision: number;
  artifactId: string;
}

type CapturedSide = Extract<SideRecord, { state: 'captured' }>;

/**
 * Where a release check's files live in the artifact store and how they are written and read: a side's screenshot
 * and text, a comparison's diff image. Files are written before the rows that name them, each under a key of its
 * own, so a duplicate run of a job never overwrites a file a row already names.
 */
@Injectable()
export class ReleaseCheckFiles {
  constructor(private readonly store: ArtifactStore) {}

  /** Writes a capture's files and returns the side's record; missing evidence has no files. */
  async storeCapture(address: ArtifactAddress & { side: Side }, result: CaptureResult): Promise<SideRecord> {
    const capturedAt = new Date().toISOString();
    if (!result.ok) {
      return {
        state: 'missing',
        url: result.url,
        final_url: result.final_url,
        status: result.status,
        reason: result.reason,
        message: result.message,
        captured_at: capturedAt,
      };
    }
    const capture = randomUUID();
    const screenshotKey = `${this.folder(address)}/${address.side}-${capture}.png`;
    const textKey = `${this.folder(address)}/${address.side}-${capture}.txt`;
    await Promise.all([this.store.put(screenshotKey, result.screenshot), this.store.put(textKey, result.text)]);
    return {
      state: 'captured',
      url: result.url,
      final_url: result.final_url,
      status: result.status,
      robots: result.robots,
      canonical: result.canonical,
      required_selector_found: result.required_selector_found,
      findings: result.findings,
      // Release-check captures always scan; only monitors ask the engine to skip it.
      axe_version: result.axe_version ?? 'unknown',
      screenshot_key: screenshotKey,
      text_key: textKey,
      captured_at: capturedAt,
      responses: result.responses,
      user_agent: result.user_agent,
    };
  }

  /** Stores a comparison's diff image; returns its key. */
  async storeDiff(address: ArtifactAddress, png: Buffer): Promise<string> {
    const key = `${this.folder(address)}/diff-${randomUUID()}.png`;
    await this.store.put(key, png);
    return key;
  }

  /** A captured side's evidence, read back from its files. */
  async evidence(side: CapturedSide): Promise<SideEvidence> {
    const [screenshot, text] = await Promise.all([this.store.get(side.screenshot_key), this.store.get(side.text_key)]);
    if (!screenshot || text === null) throw new Error(`evidence files of ${side.url} are gone`);
    return {
      url: side.final_url,
      text: text.toString('utf8'),
      robots: side.robots,
      canonical: side.canonical,
      screenshot,
      findings: side.findings,
      axe_version: side.axe_version,
    };
  }

  /** A file of an artifact, by its public name. */
  async read(
    artifact: ReleaseCheckArtifact,
    name: ArtifactFileName,
  ): Promise<{ data: Buffer; contentType: string } | null> {
    const captured = (side: Side) => {
      const record = artifact[side];
      return record?.state === 'captured' ? record : null;
    };
    const keys: Record<ArtifactFileName, string | null | undefined> = {
      'production.png': captured('production')?.screenshot_key,
      'preview.png': captured('preview')?.screenshot_key,
      'production.txt': captured('production')?.text_key,
      'preview.txt': captured('preview')?.text_key,
      'diff.png': artifact.comparison?.screenshot.diff_key,
    };
    const key = keys[name];
    const data = key ? await this.store.get(key) : null;
    if (!data) return null;
    return { data, contentType: name.endsWith('.png') ? 'image/png' : 'text/plain; charset=utf-8' };
  }

  /** Removes every file of a check. */
  deleteAll(checkId: string): Promise<void> {
    return this.store.deleteFolder(releaseCheckFolder(checkId));
  }

  private folder(address: ArtifactAddress): string {
    return `${releaseCheckFolder(address.checkId)}/r${address.revision}/${address.artifactId}`;
  }
}

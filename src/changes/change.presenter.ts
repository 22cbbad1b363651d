import { API_PREFIX } from '../http/version-alias.middleware';
import type { ChangeDetailDto, ChangeDto } from './dto/change.dto';
import type { Change } from './entities/change.entity';

const screenshotUrl = (change: Pick<Change, 'id'>, key: string | null, name: string): string | null =>
  key === null ? null : `${API_PREFIX}/changes/${change.id}/screenshots/${name}`;

/** A change in its wire shape; its monitor must be loaded (the name is part of every change). */
export function presentChange(change: Omit<Change, 'diff'>): ChangeDto {
  return {
    id: change.id,
    monitor_id: change.monitor.id,
    monitor_name: change.monitor.name,
    kind: change.kind,
    region: change.region,
    detected_at: change.detectedAt.toISOString(),
    summary: change.summary,
    value: change.value,
    visual: change.visual && {
      ...change.visual,
      diff_url: screenshotUrl(change, change.diffScreenshotKey, 'diff.png'),
    },
    metadata: change.metadata,
    feedback: change.feedback,
    archived: change.archived,
    before_screenshot_url: screenshotUrl(change, change.beforeScreenshotKey, 'before.png'),
    after_screenshot_url: screenshotUrl(change, change.afterScreenshotKey, 'after.png'),
  };
}

export function presentChangeDetail(change: Change): ChangeDetailDto {
  return { ...presentChange(change), diff: change.diff };
}

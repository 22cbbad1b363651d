import type { Artifact } from '../types';

export const MISSING_REASON: Record<string, string> = {
  http_error: 'HTTP error',
  navigation_failed: 'Navigation failed',
  timeout: 'Timed out',
  required_selector_missing: 'Required selector missing',
  target_not_public: 'Target not public',
  capture_failed: 'Capture failed',
};

export const SIDE_LABEL = { production: 'Production', preview: 'Preview' } as const;
export type SideName = keyof typeof SIDE_LABEL;

export function pairLabel(artifact: Pick<Artifact, 'production_path' | 'preview_path'>): string {
  return artifact.production_path === artifact.preview_path
    ? artifact.production_path
    : `${artifact.production_path} → ${artifact.preview_path}`;
}

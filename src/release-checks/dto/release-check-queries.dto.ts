import { PageQuery } from '../../common/pagination/pagination';
import { EnumField, IntField, UuidField } from '../../common/validation/fields';
import { GATES, type Gate } from '../entities/release-check.entity';

export class ListReleaseChecksQuery extends PageQuery {
  @EnumField(GATES, 'Gate', { optional: true, description: 'Only checks whose gate has this value.' })
  gate?: Gate;
}

export class GetReleaseCheckQuery {
  @IntField({
    optional: true,
    min: 1,
    max: 1_000_000,
    description: "An earlier revision's evidence; the current revision by default.",
  })
  revision?: number;
}

export const ARTIFACT_FILE_NAMES = [
  'production.png',
  'preview.png',
  'diff.png',
  'production.txt',
  'preview.txt',
] as const;
export type ArtifactFileName = (typeof ARTIFACT_FILE_NAMES)[number];

/** A check and one of its artifacts. */
export class ArtifactParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;

  @UuidField({ description: 'The artifact (one page at one viewport of the current revision).' })
  artifact_id: string;
}

/** The three path parameters of an artifact file, validated together. */
export class ArtifactFileParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;

  @UuidField({ description: 'The artifact (one page at one viewport of one revision).' })
  artifact_id: string;

  @EnumField(ARTIFACT_FILE_NAMES, 'ArtifactFileName', { description: 'Which file.' })
  name: ArtifactFileName;
}

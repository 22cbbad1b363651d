import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/pagination';
import { TRACKED_VALUE_KINDS } from '../../monitors/dto/monitor-requests.dto';
import {
  CHANGE_FEEDBACK,
  CHANGE_KINDS,
  type ChangeFeedback,
  type ChangeKind,
  METADATA_FIELDS,
  type MetadataField,
} from '../entities/change.entity';

const nullableString = { type: 'string', nullable: true } as const;
const nullableNumber = { type: 'number', nullable: true } as const;

export class ChangeSummaryDto {
  @ApiProperty({ type: 'string' })
  text: string;

  @ApiProperty({
    type: 'string',
    enum: ['heuristic', 'llm'],
    description: '`llm` only when a language model wrote the text.',
  })
  source: 'heuristic' | 'llm';
}

export class ValueChangeDto {
  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ enum: TRACKED_VALUE_KINDS, enumName: 'TrackedValueKind' })
  kind: (typeof TRACKED_VALUE_KINDS)[number];

  @ApiProperty(nullableString)
  before: string | null;

  @ApiProperty(nullableString)
  after: string | null;

  @ApiProperty(nullableNumber)
  before_amount: number | null;

  @ApiProperty(nullableNumber)
  after_amount: number | null;

  @ApiProperty(nullableString)
  currency: string | null;
}

export class VisualChangeDto {
  @ApiProperty({
    type: 'number',
    description: 'Share of differing pixels, 0 to 1, outside the areas that move on their own.',
  })
  mismatch_ratio: number;

  @ApiProperty({ type: 'number', description: "The monitor's `visual_threshold` when the change was recorded." })
  threshold: number;

  @ApiProperty({ ...nullableString, description: 'The difference image (before with the changed pixels tinted).' })
  diff_url: string | null;
}

export class MetadataFieldChangeDto {
  @ApiProperty({ enum: METADATA_FIELDS, enumName: 'MetadataField' })
  field: MetadataField;

  @ApiProperty(nullableString)
  before: string | null;

  @ApiProperty(nullableString)
  after: string | null;
}

export class ChangeDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ type: 'string' })
  monitor_name: string;

  @ApiProperty({ enum: CHANGE_KINDS, enumName: 'ChangeKind' })
  kind: ChangeKind;

  @ApiProperty({ type: 'string' })
  region: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  detected_at: string;

  @ApiProperty({ type: () => ChangeSummaryDto })
  summary: ChangeSummaryDto;

  @ApiProperty({
    type: () => ValueChangeDto,
    nullable: true,
    description: 'For changes of kind `value`, the value that moved.',
  })
  value: ValueChangeDto | null;

  @ApiProperty({
    type: () => VisualChangeDto,
    nullable: true,
    description: 'For changes of kind `visual`, how much of the page changed and the difference image.',
  })
  visual: VisualChangeDto | null;

  @ApiProperty({
    type: () => [MetadataFieldChangeDto],
    nullable: true,
    description: 'For changes of kind `metadata`, each field that changed.',
  })
  metadata: MetadataFieldChangeDto[] | null;

  @ApiProperty({ enum: CHANGE_FEEDBACK, enumName: 'ChangeFeedback', nullable: true })
  feedback: ChangeFeedback | null;

  @ApiProperty({ type: 'boolean' })
  archived: boolean;

  @ApiProperty({ ...nullableString, description: 'Browser monitors only.' })
  before_screenshot_url: string | null;

  @ApiProperty({ ...nullableString, description: 'Browser monitors only.' })
  after_screenshot_url: string | null;
}

export class ChangeListDto extends PageOf(ChangeDto, 'ChangeList') {}

export class TextDiffDto {
  @ApiProperty({ type: 'string', description: 'A unified diff of the watched text, before → after.' })
  unified: string;

  @ApiProperty({ type: 'string', isArray: true })
  added: string[];

  @ApiProperty({ type: 'string', isArray: true })
  removed: string[];

  @ApiProperty({
    type: 'boolean',
    description: 'More than 500 lines were added or removed; the lists hold the first 500.',
  })
  truncated: boolean;
}

export class ChangeDetailDto extends ChangeDto {
  @ApiProperty({ type: () => TextDiffDto, nullable: true, description: 'For changes of kind `content`.' })
  diff: TextDiffDto | null;
}

import { PageQuery } from '../../common/pagination/pagination';
import { BooleanField, EnumField, UuidField } from '../../common/validation/fields';
import { CHANGE_FEEDBACK, CHANGE_KINDS, type ChangeFeedback, type ChangeKind } from '../entities/change.entity';

export class ListChangesQuery extends PageQuery {
  @UuidField({ optional: true, description: 'Only changes of this monitor.' })
  monitor_id?: string;

  @EnumField(CHANGE_KINDS, 'ChangeKind', { optional: true })
  kind?: ChangeKind;

  @BooleanField({
    optional: true,
    description: 'Archived changes (`true`) or the others (`false`, the default).',
  })
  archived?: boolean;
}

export class UpdateChangeDto {
  @EnumField(CHANGE_FEEDBACK, 'ChangeFeedback', {
    optional: true,
    nullable: true,
    description: '`null` withdraws the feedback.',
  })
  feedback?: ChangeFeedback | null;

  @BooleanField({ optional: true })
  archived?: boolean;
}

export const CHANGE_SCREENSHOT_NAMES = ['before.png', 'after.png', 'diff.png'] as const;
export type ChangeScreenshotName = (typeof CHANGE_SCREENSHOT_NAMES)[number];

export class ChangeScreenshotParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;

  @EnumField(CHANGE_SCREENSHOT_NAMES, 'ChangeScreenshotName', { description: 'Which screenshot.' })
  name: ChangeScreenshotName;
}

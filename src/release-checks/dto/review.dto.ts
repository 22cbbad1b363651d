import { EnumField, IntField, TextField } from '../../common/validation/fields';
import { REVIEW_DECISIONS, type ReviewDecision } from '../entities/release-check-review.entity';

export class ReviewReleaseCheckDto {
  @EnumField(REVIEW_DECISIONS, 'ReviewDecision')
  decision: ReviewDecision;

  @TextField({ maxLength: 5000, description: 'What was reviewed and why the decision; required.' })
  note: string;

  @IntField({ min: 1, max: 1_000_000, description: 'The revision the decision applies to; must be the current one.' })
  revision: number;
}

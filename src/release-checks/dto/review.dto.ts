import { BooleanField, EnumField, IntField, TextField } from '../../common/validation/fields';
import { REVIEW_DECISIONS, type ReviewDecision } from '../entities/release-check-review.entity';

export class ReviewReleaseCheckDto {
  @EnumField(REVIEW_DECISIONS, 'ReviewDecision')
  decision: ReviewDecision;

  @TextField({ maxLength: 5000, description: 'What was reviewed and why the decision; required.' })
  note: string;

  @IntField({ min: 1, max: 1_000_000, description: 'The revision the decision applies to; must be the current one.' })
  revision: number;

  @BooleanField({
    optional: true,
    description:
      'Accept the undecided pairs unchanged since a revision in which they were accepted. False when absent.',
  })
  carry_over?: boolean;
}

export const PAIR_DECISION_REQUESTS = ['accept', 'reject'] as const;
export type PairDecisionRequest = (typeof PAIR_DECISION_REQUESTS)[number];

export class PairDecisionRequestDto {
  @EnumField(PAIR_DECISION_REQUESTS, 'PairDecisionRequestDecision')
  decision: PairDecisionRequest;

  @TextField({ optional: true, maxLength: 5000, description: 'Why; required to reject.' })
  note?: string;

  @IntField({ min: 1, max: 1_000_000, description: 'The revision the decision applies to; must be the current one.' })
  revision: number;
}

import { gateReportOf, type ReleaseCheckEvent, reportedAt } from './gate-report';

const source = { provider: 'github' as const, repository: 'acme/site', commit_sha: 'a'.repeat(40), pull_request: 7 };
const base = {
  id: 'evt_1',
  created_at: '2026-11-28T10:00:00Z',
  workspace_id: '00000000-0000-4000-8000-000000000000',
};
const common = {
  release_check_id: '11111111-1111-4111-8111-111111111111',
  name: 'storefront',
  revision: 2,
  source,
  review_url: 'https://vigil.example.com/release-checks/11111111-1111-4111-8111-111111111111',
};
const summary = {
  pairs: 4,
  captured: 4,
  missing: 0,
  with_differences: 1,
  unstable: 1,
  awaiting_decision: 1,
  new_findings: 2,
};
const pair = {
  artifact_id: '22222222-2222-4222-8222-222222222222',
  production_path: '/pricing',
  preview_path: '/pricing',
  viewport: 'mobile' as const,
  review_url: `${common.review_url}#pair-22222222-2222-4222-8222-222222222222`,
};

const started: ReleaseCheckEvent = { ...base, type: 'release_check.started', data: { ...common, pairs: 4 } };
const completed = (gate: 'pending' | 'failed', missing = 0): ReleaseCheckEvent => ({
  ...base,
  type: 'release_check.completed',
  data: {
    ...common,
    collection_status: gate === 'failed' ? 'incomplete' : 'completed',
    gate,
    summary: { ...summary, missing, captured: 4 - missing },
    pairs_with_differences: [pair],
  },
});
const reviewed = (decision: 'approve' | 'reject'): ReleaseCheckEvent => ({
  ...base,
  type: 'release_check.reviewed',
  data: {
    ...common,
    decision,
    gate: decision === 'approve' ? 'passed' : 'failed',
    reviewer_id: '33333333-3333-4333-8333-333333333333',
    reviewer_email: 'dana@example.com',
    summary,
    pairs_with_differences: [pair],
  },
});

describe('gateReportOf', () => {
  it('follows the gate: collecting, awaiting review, then approved or failed', () => {
    expect(gateReportOf(started)).toMatchObject({
      state: 'collecting',
      description: 'Collecting evidence of 4 pairs',
    });
    expect(gateReportOf(completed('pending'))).toMatchObject({
      state: 'awaiting_review',
      description: '4 pairs await review, 1 with differences',
    });
    expect(gateReportOf(completed('failed', 1))).toMatchObject({
      state: 'failure',
      description: 'Evidence is missing for 1 of 4 pairs',
    });
    expect(gateReportOf(reviewed('approve'))).toMatchObject({
      state: 'success',
      description: 'Approved by dana',
    });
    expect(gateReportOf(reviewed('reject'))).toMatchObject({
      state: 'failure',
      description: 'Rejected by dana',
    });
  });

  it('names one context per check and links the review page', () => {
    const report = gateReportOf(completed('pending'));
    expect(report.context).toBe('vigil/storefront');
    expect(report.targetUrl).toBe(common.review_url);
  });

  it('has no link without an absolute review URL (the service has no PUBLIC_URL)', () => {
    const relative = { ...started, data: { ...started.data, review_url: '/release-checks/1' } } as ReleaseCheckEvent;
    expect(gateReportOf(relative).targetUrl).toBeNull();
  });

  it('writes a comment with the gate, the counts, the differing pages with links and who decided', () => {
    const { comment, marker } = gateReportOf(reviewed('approve'));
    expect(comment.startsWith(marker)).toBe(true);
    expect(comment).toContain('| 4 | 1 | 1 | 2 | 0 |');
    expect(comment).toContain(`[\`/pricing\` (mobile)](${pair.review_url})`);
    expect(comment).toContain('\nApproved by dana.\n');
    expect(reportedAt(comment)).toBe('2026-11-28T10:00:00Z');
    expect(comment).toContain(`[Open the review in Vigil](${common.review_url}) · revision 2`);
  });

  it('marks the comment by check name so no name can end the HTML comment early', () => {
    const named = { ...started, data: { ...started.data, name: 'a --> b' } } as ReleaseCheckEvent;
    expect(gateReportOf(named).marker).toBe('<!-- vigil-release-check: a%20--%3E%20b -->');
  });

  it('keeps a status description within 140 characters', () => {
    const long = { ...reviewed('approve') } as Extract<ReleaseCheckEvent, { type: 'release_check.reviewed' }>;
    long.data = { ...long.data, reviewer_email: `${'x'.repeat(200)}@example.com` };
    // Only the name before the @ is shown: statuses are public on public repositories.
    expect(gateReportOf(long).description).toHaveLength(140);
  });
});

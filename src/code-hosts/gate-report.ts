import type { EventPayloadOf } from '../events/event-payloads';

/** The events a code host is told about: a release check's revision started, collected, or decided. */
export type ReleaseCheckEvent = EventPayloadOf<
  'release_check.started' | 'release_check.completed' | 'release_check.reviewed'
>;

export const RELEASE_CHECK_EVENT_TYPES = [
  'release_check.started',
  'release_check.completed',
  'release_check.reviewed',
] as const satisfies readonly ReleaseCheckEvent['type'][];

/**
 * Where the gate stands for a code host: collecting, waiting for a person, approved, or failed (missing evidence or
 * rejected). Providers spell these differently (GitLab has no second pending; see the clients).
 */
export type GateState = 'collecting' | 'awaiting_review' | 'success' | 'failure';

export interface GateReport {
  state: GateState;
  /** One line, at most 140 characters (GitHub's limit). */
  description: string;
  /** The status's name: one per check name, so several checks of a commit stand side by side. */
  context: string;
  /** The review page, when the service knows its own address (code hosts need an absolute link). */
  targetUrl: string | null;
  /** The pull or merge request comment, in Markdown; it starts with `marker`. */
  comment: string;
  /** Identifies the check's comment among a pull request's comments, so it is edited rather than added again. */
  marker: string;
  /** When the event happened: a comment already showing a later one is not edited back. */
  at: string;
}

const MAX_DESCRIPTION = 140;
/** The comment's last line, invisible when rendered: when the event it shows happened. */
const AT_PREFIX = '<!-- vigil-at: ';
const LABELS: Record<GateState, string> = {
  collecting: '⏳ Collecting evidence',
  awaiting_review: '👀 Waiting for a review',
  success: '✅ Approved',
  failure: '❌ Failed',
};

/** What a code host shows for a release check's event: the one place that turns the gate into a status and comment. */
export function gateReportOf(event: ReleaseCheckEvent): GateReport {
  const { data } = event;
  const state = stateOf(event);
  const description = truncate(descriptionOf(event), MAX_DESCRIPTION);
  const marker = commentMarker(data.name);
  const targetUrl = /^https?:\/\//.test(data.review_url) ? data.review_url : null;
  return {
    state,
    description,
    context: `vigil/${data.name}`,
    targetUrl,
    marker,
    at: event.created_at,
    comment: `${commentOf(event, state, description, marker, targetUrl)}\n${AT_PREFIX}${event.created_at} -->`,
  };
}

/** When the event a comment shows happened ('' for a comment without it). */
export function reportedAt(comment: string): string {
  const start = comment.lastIndexOf(AT_PREFIX);
  return start < 0 ? '' : comment.slice(start + AT_PREFIX.length).split(' ')[0];
}

/** The comment's first line, invisible when rendered: names the check (encoded, so no name can close the comment). */
export function commentMarker(checkName: string): string {
  return `<!-- vigil-release-check: ${encodeURIComponent(checkName)} -->`;
}

function stateOf(event: ReleaseCheckEvent): GateState {
  switch (event.type) {
    case 'release_check.started':
      return 'collecting';
    case 'release_check.completed':
      return event.data.gate === 'failed' ? 'failure' : 'awaiting_review';
    case 'release_check.reviewed':
      return event.data.gate === 'passed' ? 'success' : 'failure';
  }
}

function descriptionOf(event: ReleaseCheckEvent): string {
  switch (event.type) {
    case 'release_check.started':
      return `Collecting evidence of ${pairs(event.data.pairs)}`;
    case 'release_check.completed': {
      const { summary } = event.data;
      if (event.data.gate === 'failed') return `Evidence is missing for ${summary.missing} of ${pairs(summary.pairs)}`;
      const differing = summary.with_differences ? `, ${summary.with_differences} with differences` : '';
      return `${pairs(summary.pairs)} ${summary.pairs === 1 ? 'awaits' : 'await'} review${differing}`;
    }
    case 'release_check.reviewed':
      return `${event.data.decision === 'approve' ? 'Approved' : 'Rejected'} by ${reviewerName(event.data.reviewer_email)}`;
  }
}

function commentOf(
  event: ReleaseCheckEvent,
  state: GateState,
  description: string,
  marker: string,
  targetUrl: string | null,
): string {
  const { data } = event;
  const lines = [
    marker,
    `### Vigil release check \`${escapeCode(data.name)}\`: ${LABELS[state]}`,
    '',
    `${escapeMarkdown(description)}.`,
  ];
  if (event.type !== 'release_check.started') {
    const { summary } = event.data;
    lines.push(
      '',
      '| Pairs | With differences | Unstable | New findings | Missing |',
      '| ---: | ---: | ---: | ---: | ---: |',
      `| ${summary.pairs} | ${summary.with_differences} | ${summary.unstable} | ${summary.new_findings} | ${summary.missing} |`,
    );
    const differing = event.data.pairs_with_differences;
    if (differing.length) {
      lines.push('', '**Pages that differ**', '');
      for (const pair of differing) {
        const label = `\`${escapeCode(pair.preview_path)}\` (${pair.viewport})`;
        lines.push(`- ${/^https?:\/\//.test(pair.review_url) ? `[${label}](${pair.review_url})` : label}`);
      }
      const more = summary.with_differences - differing.length;
      if (more > 0) lines.push(`- and ${more} more`);
    }
  }
  lines.push('');
  if (state === 'awaiting_review')
    lines.push('Nothing is approved automatically: a person reviews this check in Vigil.');
  lines.push(
    targetUrl ? `[Open the review in Vigil](${targetUrl}) · revision ${data.revision}` : `Revision ${data.revision}`,
  );
  return lines.join('\n');
}

/**
 * Who decided, as shown on the code host: the part of the address before the @. Statuses and comments are public on
 * a public repository; the whole address stays in Vigil (and in the event's `reviewer_email`).
 */
function reviewerName(email: string): string {
  return email.split('@')[0];
}

function pairs(count: number): string {
  return `${count} ${count === 1 ? 'pair' : 'pairs'}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Inline code cannot hold a backtick; names and paths come from callers. */
function escapeCode(text: string): string {
  return text.replaceAll('`', "'");
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (character) => `\\${character}`);
}

import { Badge } from '../components/Badge';
import type { IncidentImpact, IncidentStatus, Monitor, StatusPageComponent, StatusPageComponentInput } from '../types';

export const IMPACTS: { value: IncidentImpact; label: string; tone: string }[] = [
  { value: 'minor', label: 'Minor: some visitors notice', tone: 'warning' },
  { value: 'major', label: 'Major: a service is partly down', tone: 'danger' },
  { value: 'critical', label: 'Critical: a service is down', tone: 'danger' },
];

const IMPACT_WORD: Record<IncidentImpact, string> = { minor: 'Minor', major: 'Major', critical: 'Critical' };

/** An incident's steps, in the order they usually come (openapi.yaml `IncidentStatus`). */
export const INCIDENT_STATUSES: { value: IncidentStatus; label: string; tone: string }[] = [
  { value: 'investigating', label: 'Investigating', tone: 'warning' },
  { value: 'identified', label: 'Identified', tone: 'warning' },
  { value: 'monitoring', label: 'Monitoring', tone: 'info' },
  { value: 'resolved', label: 'Resolved', tone: 'success' },
];

export const incidentStatusLabel = (status: IncidentStatus) =>
  INCIDENT_STATUSES.find((item) => item.value === status)!.label;

/** The step after `status` (an update usually moves the incident on), or `resolved` at the end. */
export function nextIncidentStatus(status: IncidentStatus): IncidentStatus {
  const index = INCIDENT_STATUSES.findIndex((item) => item.value === status);
  return INCIDENT_STATUSES[Math.min(index + 1, INCIDENT_STATUSES.length - 1)].value;
}

export function ImpactBadge({ impact }: { impact: IncidentImpact }) {
  const { tone } = IMPACTS.find((item) => item.value === impact)!;
  return <Badge tone={tone}>{IMPACT_WORD[impact]} impact</Badge>;
}

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  const { label, tone } = INCIDENT_STATUSES.find((item) => item.value === status)!;
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Status: </span>
      {label}
    </Badge>
  );
}

export function PublishedBadge({ published }: { published: boolean }) {
  return published ? <Badge tone="success">Published</Badge> : <Badge tone="neutral">Not published</Badge>;
}

/** A slug from a title: lower-case letters, digits and single hyphens, at most 60 characters (openapi.yaml `Slug`). */
export function slugFrom(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
}

/** The absolute address of a page for people (`public_url` is a path on this service). */
export const absoluteUrl = (path: string) => new URL(path, window.location.origin).toString();

/** A component as edited: `id` when it is one of the page's already (so the API keeps it), a local key otherwise. */
export interface ComponentDraft {
  key: string;
  id?: string;
  name: string;
  monitorIds: string[];
}

let drafted = 0;
const draftKey = () => `component-${(drafted += 1)}`;

export const emptyComponent = (): ComponentDraft => ({ key: draftKey(), name: '', monitorIds: [] });

/** The page's components as drafts; monitors that no longer exist are left out (the API would refuse them). */
export function componentDrafts(components: readonly StatusPageComponent[], monitors: readonly Monitor[]) {
  const known = new Set(monitors.map((monitor) => monitor.id));
  return components.map((component) => ({
    key: component.id,
    id: component.id,
    name: component.name,
    monitorIds: component.monitor_ids.filter((id) => known.has(id)),
  }));
}

export const componentInputs = (drafts: readonly ComponentDraft[]): StatusPageComponentInput[] =>
  drafts.map((draft) => ({
    ...(draft.id ? { id: draft.id } : {}),
    name: draft.name.trim(),
    monitor_ids: draft.monitorIds,
  }));

/** The form's own check of the components: each needs a name. Answers the messages by draft key. */
export function componentProblems(drafts: readonly ComponentDraft[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const draft of drafts) {
    if (!draft.name.trim()) problems[draft.key] = 'Name the component as the public will see it, such as “Website”.';
  }
  return problems;
}

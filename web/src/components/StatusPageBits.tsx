import { useRef, useState } from 'react';
import { ProblemError } from '../api';
import type { IncidentImpact, IncidentStatus, Monitor, StatusPageComponent, StatusPageComponentInput } from '../types';
import { Badge } from './Badge';
import { TextField } from './Field';
import { MonitorPicker } from './MonitorPicker';
import { fieldError } from './ProblemAlert';

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

/** The API's message about the list itself (too many components), not about one of them. */
function listError(error: unknown): string | undefined {
  if (!(error instanceof ProblemError) || !Array.isArray(error.problem.errors)) return undefined;
  return error.problem.errors.find((item) => item.field === 'components')?.message;
}

/**
 * The components of a status page, each a name and the monitors whose checks make up its status: add, name, choose
 * monitors, remove. The API's errors show at the component they name (`components[1].name`).
 */
export function ComponentsEditor({
  idPrefix,
  drafts,
  onChange,
  monitors,
  local,
  error,
}: {
  idPrefix: string;
  drafts: readonly ComponentDraft[];
  onChange: (drafts: ComponentDraft[]) => void;
  monitors: readonly Monitor[];
  /** The form's own messages, by draft key. */
  local: Record<string, string>;
  error: unknown;
}) {
  const addRef = useRef<HTMLButtonElement>(null);
  // The component just added takes the focus, so a keyboard user names it next.
  const [added, setAdded] = useState<string | null>(null);
  const change = (key: string, update: Partial<ComponentDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...update } : draft)));
  const overall = listError(error);

  return (
    <fieldset className="field components-editor" aria-describedby={`${idPrefix}-components-hint`}>
      <legend>Components</legend>
      <p id={`${idPrefix}-components-hint`} className="hint">
        What the public sees, in this order: each component has a name and the monitors whose checks make up its status
        and 90 days of uptime. Monitor names and addresses are never shown.
      </p>
      {drafts.length === 0 ? <p className="muted small">No components yet: the page shows only incidents.</p> : null}
      <ol className="component-drafts">
        {drafts.map((draft, index) => {
          const number = index + 1;
          const id = `${idPrefix}-component-${draft.key}`;
          const title = draft.name.trim() ? `Component ${number}: ${draft.name.trim()}` : `Component ${number}`;
          return (
            <li key={draft.key} className="component-draft" data-component-index={index}>
              <fieldset className="component-fieldset">
                <legend>{title}</legend>
                <TextField
                  id={`${id}-name`}
                  label="Component name"
                  required
                  maxLength={100}
                  autoFocus={added === draft.key}
                  value={draft.name}
                  onChange={(name) => change(draft.key, { name })}
                  error={
                    local[draft.key] ??
                    fieldError(error, `components[${index}].name`) ??
                    fieldError(error, `components[${index}].id`)
                  }
                />
                <MonitorPicker
                  id={`${id}-monitors`}
                  legend={`Monitors of ${draft.name.trim() || `component ${number}`}`}
                  hint="Its status is the worst of these monitors’; its uptime counts all their checks."
                  monitors={monitors}
                  selected={draft.monitorIds}
                  onChange={(monitorIds) => change(draft.key, { monitorIds })}
                  error={fieldError(error, `components[${index}].monitor_ids`)}
                />
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  onClick={() => {
                    onChange(drafts.filter((item) => item.key !== draft.key));
                    addRef.current?.focus();
                  }}
                >
                  Remove<span className="visually-hidden"> {title}</span>
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {overall ? <p className="field-error">{overall}</p> : null}
      <button
        type="button"
        ref={addRef}
        className="button button-small button-secondary"
        onClick={() => {
          const next = emptyComponent();
          setAdded(next.key);
          onChange([...drafts, next]);
        }}
      >
        Add a component
      </button>
    </fieldset>
  );
}

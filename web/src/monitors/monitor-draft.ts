import { api, ok } from '../api';
import type { AssertionOperator, AssertionType, Monitor, MonitorMode, TrackedValueKind } from '../types';

/** A tracked value as its form row holds it. */
export interface TrackedDraft {
  /** Stable across edits, so a removed row takes its inputs with it. */
  key: number;
  name: string;
  selector: string;
  kind: TrackedValueKind;
}

/** A response assertion as its form row holds it ('' for a property or value it does not take). */
export interface AssertionDraft {
  key: number;
  type: AssertionType;
  property: string;
  operator: AssertionOperator;
  value: string;
}

/** A heartbeat monitor's schedule as its fields hold it. */
export interface HeartbeatDraft {
  kind: 'interval' | 'cron';
  interval: number;
  cron: string;
  timezone: string;
  /** As typed: empty is the API's default. */
  grace: string;
}

/** The monitor form's fields, as typed. */
export interface Draft {
  name: string;
  url: string;
  interval: number;
  regions: string;
  mode: MonitorMode;
  keyword: string;
  selector: string;
  tracked: TrackedDraft[];
  assertions: AssertionDraft[];
  heartbeat: HeartbeatDraft;
  /** The monitor this one depends on; '' for none. */
  parentId: string;
}

export function draftOf(monitor: Monitor | null): Draft {
  return {
    name: monitor?.name ?? '',
    url: monitor?.url ?? '',
    interval: monitor?.interval_seconds ?? 300,
    regions: monitor?.regions.join(', ') ?? '',
    mode: monitor?.mode ?? 'http',
    keyword: monitor?.keyword ?? '',
    selector: monitor?.selector ?? '',
    tracked: (monitor?.tracked_values ?? []).map((value, index) => ({ key: index, ...value })),
    assertions: (monitor?.assertions ?? []).map((assertion, index) => ({
      key: index,
      type: assertion.type,
      property: assertion.property ?? '',
      operator: assertion.operator,
      value: assertion.value ?? '',
    })),
    heartbeat: heartbeatDraftOf(monitor),
    parentId: monitor?.parent_id ?? '',
  };
}

function heartbeatDraftOf(monitor: Monitor | null): HeartbeatDraft {
  const schedule = monitor?.schedule ?? null;
  const grace = String(monitor?.grace_seconds ?? 300);
  return schedule && 'cron' in schedule
    ? { kind: 'cron', interval: 86400, cron: schedule.cron, timezone: schedule.timezone, grace }
    : { kind: 'interval', interval: schedule?.interval_seconds ?? 86400, cron: '', timezone: '', grace };
}

/** The heartbeat settings for the API: the schedule the form shows, and the grace unless left empty. */
function heartbeatInput({ kind, interval, cron, timezone, grace }: HeartbeatDraft) {
  return {
    schedule:
      kind === 'interval'
        ? { interval_seconds: interval }
        : { cron: cron.trim(), ...(timezone.trim() ? { timezone: timezone.trim() } : {}) },
    ...(grace.trim() === '' ? {} : { grace_seconds: Number(grace) }),
  };
}

const regionList = (text: string) =>
  text
    .split(',')
    .map((region) => region.trim())
    .filter(Boolean);

/** The parent for the API: a new monitor names one only when chosen; an edit always does, null removing it. */
const parentInput = (monitor: Monitor | null, parentId: string) =>
  monitor ? { parent_id: parentId || null } : parentId ? { parent_id: parentId } : {};

/** Creates the monitor, or saves the changes to it (its regions with a call of their own); answers it as saved. */
export async function saveMonitor(monitor: Monitor | null, draft: Draft): Promise<Monitor> {
  const parent = parentInput(monitor, draft.parentId);
  const tracked_values = draft.tracked.map(({ name, selector, kind }) => ({
    name: name.trim(),
    selector: selector.trim(),
    kind,
  }));
  // A browser monitor takes none (the API would refuse them); the rows stay in the form should the mode go back.
  const assertions =
    draft.mode === 'browser'
      ? []
      : draft.assertions.map(({ type, property, operator, value }) => ({
          type,
          operator,
          ...(property.trim() && ['header', 'json_path', 'css_text'].includes(type)
            ? { property: property.trim() }
            : {}),
          ...(value !== '' && operator !== 'exists' && operator !== 'not_exists' ? { value } : {}),
        }));
  const regions = regionList(draft.regions);
  if (draft.mode === 'heartbeat') {
    // A heartbeat monitor has no page: it takes only its name, schedule and parent.
    const body = { name: draft.name.trim(), ...heartbeatInput(draft.heartbeat), ...parent };
    return monitor
      ? ok(api.PATCH('/monitors/{id}', { params: { path: { id: monitor.id } }, body }))
      : ok(api.POST('/monitors', { body: { ...body, mode: 'heartbeat' } }));
  }
  if (!monitor) {
    return ok(
      api.POST('/monitors', {
        body: {
          name: draft.name.trim(),
          url: draft.url.trim(),
          mode: draft.mode,
          interval_seconds: draft.interval,
          ...(draft.keyword.trim() ? { keyword: draft.keyword.trim() } : {}),
          ...(draft.selector.trim() ? { selector: draft.selector.trim() } : {}),
          ...(regions.length ? { regions } : {}),
          tracked_values,
          assertions,
          ...parent,
        },
      }),
    );
  }
  const path = { params: { path: { id: monitor.id } } };
  const saved = await ok(
    api.PATCH('/monitors/{id}', {
      ...path,
      body: {
        name: draft.name.trim(),
        url: draft.url.trim(),
        mode: draft.mode,
        interval_seconds: draft.interval,
        keyword: draft.keyword.trim() || null,
        selector: draft.selector.trim() || null,
        tracked_values,
        assertions,
        ...parent,
      },
    }),
  );
  if (regions.length && regions.join(',') !== monitor.regions.join(',')) {
    return ok(api.PUT('/monitors/{id}/regions', { ...path, body: { regions } }));
  }
  return saved;
}

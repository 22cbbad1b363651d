import {
  ASSERTION_OPERATORS,
  ASSERTION_TYPES,
  type AssertionOperator,
  type AssertionType,
  type TrackedValueKind,
} from '../../../libs/page-check';
import { PageQueryOf } from '../../common/pagination/pagination';
import {
  BooleanField,
  CssSelectorField,
  EnumField,
  HttpUrlField,
  IntField,
  NestedArrayField,
  NestedField,
  NumberField,
  TextArrayField,
  TextField,
  UuidField,
} from '../../common/validation/fields';
import {
  DEFAULT_VISUAL_THRESHOLD,
  MONITOR_MODES,
  MONITOR_STATUSES,
  type MonitorMode,
  type MonitorStatus,
} from '../entities/monitor.entity';
import { DEFAULT_GRACE_SECONDS, type HeartbeatScheduleInput } from '../heartbeat-schedule';
import { ScheduleField } from './heartbeat.dto';

export const TRACKED_VALUE_KINDS = ['price', 'number', 'text'] as const;
export const MAX_MONITORS_PER_PAGE = 500;

/** Region names: a set of 1 to 20; whether each exists is the service's question (it knows REGIONS). */
export const RegionsField = (options: { optional?: boolean; description?: string }) =>
  TextArrayField({ ...options, minItems: 1, maxItems: 20, maxLength: 50, unique: true });

export class TrackedValueSpecDto {
  @TextField({ maxLength: 100 })
  name: string;

  @CssSelectorField({ description: "A CSS selector; the first matching element's text is the value." })
  selector: string;

  @EnumField(TRACKED_VALUE_KINDS, 'TrackedValueKind')
  kind: TrackedValueKind;
}

export class ExpectedStatusDto {
  @IntField({ min: 100, max: 599 })
  min: number;

  @IntField({ min: 100, max: 599 })
  max: number;
}

export class MonitorAssertionInputDto {
  @EnumField(ASSERTION_TYPES, 'AssertionType')
  type: AssertionType;

  @TextField({
    optional: true,
    maxLength: 500,
    description: "The header's name, the JSONPath expression or the CSS selector; only for those types.",
  })
  property?: string;

  @EnumField(ASSERTION_OPERATORS, 'AssertionOperator')
  operator: AssertionOperator;

  @TextField({
    optional: true,
    maxLength: 1000,
    description: 'What to compare with (a number for the comparisons and for `status`).',
  })
  value?: string;
}

/** 0 to 20 assertions. */
const AssertionsField = (description: string) =>
  NestedArrayField(() => MonitorAssertionInputDto, { optional: true, minItems: 0, maxItems: 20, description });

/** `grace_seconds`: heartbeat monitors only. */
const GraceField = (options: { description: string; default?: number }) =>
  IntField({ optional: true, min: 0, max: 86_400, ...options });

export class CreateMonitorDto {
  @TextField({ maxLength: 200 })
  name: string;

  @UuidField({
    optional: true,
    nullable: true,
    description:
      'A monitor of the workspace this one depends on (not itself, nor one that depends on it); null for none.',
  })
  parent_id?: string | null;

  @HttpUrlField({
    optional: true,
    description: 'A public http(s) URL without credentials. Required, except for `heartbeat` monitors.',
  })
  url?: string;

  @ScheduleField('`heartbeat` monitors, which require it (and only they take it): when pings are expected.')
  schedule?: HeartbeatScheduleInput;

  @GraceField({
    description: '`heartbeat` monitors only: how late a ping may be before it is missed.',
    default: DEFAULT_GRACE_SECONDS,
  })
  grace_seconds?: number;

  @EnumField(MONITOR_MODES, 'MonitorMode', { optional: true })
  mode?: MonitorMode;

  @IntField({ optional: true, min: 30, max: 86_400, default: 300, description: 'Seconds between scheduled checks.' })
  interval_seconds?: number;

  @IntField({
    optional: true,
    min: 1,
    max: 120,
    default: 30,
    description: 'A check that takes longer fails with `timeout`.',
  })
  timeout_seconds?: number;

  @NestedField(() => ExpectedStatusDto, { optional: true })
  expected_status?: ExpectedStatusDto;

  @TextField({
    optional: true,
    maxLength: 500,
    description: 'Text that must appear on the page (within `selector`, when set) for the check to pass.',
  })
  keyword?: string;

  @CssSelectorField({
    optional: true,
    description: 'A CSS selector scoping the watched text; the check fails when nothing matches.',
  })
  selector?: string;

  @RegionsField({ optional: true, description: 'Regions to check from; defaults to the first configured region.' })
  regions?: string[];

  @NestedArrayField(() => TrackedValueSpecDto, {
    optional: true,
    minItems: 0,
    maxItems: 20,
    description: 'Values captured on every check; a moved value is recorded as a change of kind `value`.',
  })
  tracked_values?: TrackedValueSpecDto[];

  @NumberField({
    optional: true,
    min: 0,
    max: 1,
    default: DEFAULT_VISUAL_THRESHOLD,
    description:
      'Browser monitors: a screenshot differing by more than this share of pixels (outside what moves on its own) is recorded as a change of kind `visual`.',
  })
  visual_threshold?: number;

  @AssertionsField("Conditions on every check's response; HTTP monitors only (`400` for a browser monitor).")
  assertions?: MonitorAssertionInputDto[];

  @BooleanField({
    optional: true,
    default: false,
    description: 'Create it paused (no scheduled check until it is resumed).',
  })
  paused?: boolean;
}

export class UpdateMonitorDto {
  @TextField({ optional: true, maxLength: 200 })
  name?: string;

  @UuidField({
    optional: true,
    nullable: true,
    description:
      'A monitor of the workspace this one depends on (not itself, nor one that depends on it); null for none.',
  })
  parent_id?: string | null;

  @HttpUrlField({ optional: true, description: 'A public http(s) URL without credentials.' })
  url?: string;

  @ScheduleField('`heartbeat` monitors only: replaces when pings are expected; the next deadline counts from now.')
  schedule?: HeartbeatScheduleInput;

  @GraceField({ description: '`heartbeat` monitors only: how late a ping may be before it is missed.' })
  grace_seconds?: number;

  @EnumField(MONITOR_MODES, 'MonitorMode', { optional: true })
  mode?: MonitorMode;

  @IntField({ optional: true, min: 30, max: 86_400 })
  interval_seconds?: number;

  @IntField({ optional: true, min: 1, max: 120 })
  timeout_seconds?: number;

  @NestedField(() => ExpectedStatusDto, { optional: true })
  expected_status?: ExpectedStatusDto;

  @TextField({ optional: true, nullable: true, maxLength: 500, description: '`null` removes the keyword.' })
  keyword?: string | null;

  @CssSelectorField({ optional: true, nullable: true, description: '`null` removes the selector.' })
  selector?: string | null;

  @NestedArrayField(() => TrackedValueSpecDto, { optional: true, minItems: 0, maxItems: 20 })
  tracked_values?: TrackedValueSpecDto[];

  @NumberField({ optional: true, min: 0, max: 1 })
  visual_threshold?: number;

  @AssertionsField("Replaces the monitor's assertions (`[]` removes them all).")
  assertions?: MonitorAssertionInputDto[];

  @BooleanField({ optional: true, description: '`true` pauses scheduled checks; `false` resumes them.' })
  paused?: boolean;
}

export class SetRegionsDto {
  @RegionsField({})
  regions: string[];
}

export class ListMonitorsQuery extends PageQueryOf(MAX_MONITORS_PER_PAGE, 'Monitors per page.') {
  @EnumField(MONITOR_STATUSES, 'MonitorStatus', { optional: true, description: 'Only monitors with this status.' })
  status?: MonitorStatus;
}

import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { SelectField, TextField } from '../components/Field';
import { MonitorPicker } from '../components/MonitorPicker';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { Monitor, Report, ReportFormat, ReportType } from '../types';
import { dayRange, PERIOD_PRESETS, type PresetName, REPORT_FORMATS, REPORT_TYPES } from './ReportBits';

type PeriodChoice = PresetName | 'days';

export function CreateReportForm({
  monitors,
  onCreated,
}: {
  monitors: Monitor[];
  onCreated: (report: Report) => void;
}) {
  const [name, setName] = useState('');
  const [type, setType] = useState<ReportType>('uptime');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [period, setPeriod] = useState<PeriodChoice>('last_30_days');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [format, setFormat] = useState<ReportFormat>('pdf');
  const [local, setLocal] = useState<{ name?: string; first?: string; last?: string }>({});
  const forMonitors = type !== 'release_checks';

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!name.trim()) problems.name = 'Name the report, such as “Monthly uptime”.';
      if (period === 'days') {
        if (!first) problems.first = 'Enter the first day of the period.';
        if (!last) problems.last = 'Enter the last day of the period.';
        else if (first && last < first) problems.last = 'The last day cannot come before the first.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const report = await ok(
        api.POST('/reports', {
          body: {
            name: name.trim(),
            type,
            monitor_ids: forMonitors ? monitorIds : [],
            period: period === 'days' ? dayRange(first, last) : { preset: period },
            format,
          },
        }),
      );
      onCreated(report);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const periodError = fieldError(error, 'period');
  const covers = REPORT_TYPES.find((item) => item.value === type)!.covers;

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {invalid ? (
        <ProblemAlert error={error} title="The report was not created: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The report was not created" />
      )}
      <TextField
        id="report-name"
        label="Name"
        required
        maxLength={120}
        placeholder="e.g. Monthly uptime"
        hint="Also the start of its files’ names."
        value={name}
        onChange={setName}
        error={local.name ?? fieldError(error, 'name')}
      />
      <SelectField
        id="report-type"
        label="Type"
        value={type}
        onChange={setType}
        options={REPORT_TYPES}
        hint={`Covers ${covers}.`}
        error={fieldError(error, 'type')}
      />
      {forMonitors ? (
        <MonitorPicker
          id="report-monitors"
          legend="Monitors"
          hint="None ticked: every monitor of the workspace when the report is generated."
          monitors={monitors}
          selected={monitorIds}
          onChange={setMonitorIds}
          error={fieldError(error, 'monitor_ids')}
        />
      ) : (
        <p className="small muted">A release checks report covers every release check of the workspace.</p>
      )}
      <fieldset className="field" aria-describedby={periodError ? 'report-period-error' : 'report-period-hint'}>
        <legend>Period</legend>
        <p id="report-period-hint" className="hint">
          A preset covers the time up to each generation; days are fixed, at most 366.
        </p>
        <ul className="scope-options">
          {[...PERIOD_PRESETS, { value: 'days' as const, label: 'Between two days (UTC)' }].map((choice) => (
            <li key={choice.value} className="check">
              <input
                id={`report-period-${choice.value}`}
                type="radio"
                name="report-period"
                checked={period === choice.value}
                onChange={() => setPeriod(choice.value)}
              />
              <label htmlFor={`report-period-${choice.value}`}>{choice.label}</label>
            </li>
          ))}
        </ul>
        {period === 'days' ? (
          <div className="rule-form-grid">
            <TextField
              id="report-first-day"
              type="date"
              label="First day"
              required
              value={first}
              onChange={setFirst}
              error={local.first}
            />
            <TextField
              id="report-last-day"
              type="date"
              label="Last day (included)"
              required
              value={last}
              onChange={setLast}
              error={local.last}
            />
          </div>
        ) : null}
        {periodError ? (
          <p id="report-period-error" className="field-error">
            {periodError}
          </p>
        ) : null}
      </fieldset>
      <SelectField
        id="report-format"
        label="Format"
        value={format}
        onChange={setFormat}
        options={REPORT_FORMATS}
        error={fieldError(error, 'format')}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create report'}
      </button>
    </form>
  );
}

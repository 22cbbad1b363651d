import { useState } from 'react';
import { SelectField, TextField } from '../components/Field';
import type { AssertionOperator, AssertionType, MonitorAssertion } from '../types';
import type { AssertionDraft } from './monitor-draft';

const TYPES: { value: AssertionType; label: string }[] = [
  { value: 'status', label: 'Status code' },
  { value: 'response_time', label: 'Response time (ms)' },
  { value: 'header', label: 'Header' },
  { value: 'json_path', label: 'JSON value (JSONPath)' },
  { value: 'body_regex', label: 'Body text' },
  { value: 'css_text', label: 'Text of an element (CSS)' },
];

const OPERATOR_LABEL: Record<AssertionOperator, string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  less_than: 'is less than',
  less_than_or_equal: 'is at most',
  greater_than: 'is greater than',
  greater_than_or_equal: 'is at least',
  contains: 'contains',
  not_contains: 'does not contain',
  matches: 'matches (RE2 regular expression)',
  not_matches: 'does not match',
  exists: 'exists',
  not_exists: 'does not exist',
};

const COMPARISONS: AssertionOperator[] = ['less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'];
const EVERY = Object.keys(OPERATOR_LABEL) as AssertionOperator[];
/** The operators each type takes (the API says the same, openapi.yaml `AssertionOperator`). */
const OPERATORS: Record<AssertionType, AssertionOperator[]> = {
  status: ['equals', 'not_equals', ...COMPARISONS],
  response_time: COMPARISONS,
  header: EVERY,
  json_path: EVERY,
  body_regex: ['matches', 'not_matches', 'contains', 'not_contains'],
  css_text: EVERY,
};
const PROPERTY: Partial<Record<AssertionType, { label: string; placeholder: string }>> = {
  header: { label: 'Header name', placeholder: 'cache-control' },
  json_path: { label: 'JSONPath', placeholder: '$.status' },
  css_text: { label: 'CSS selector', placeholder: '.price' },
};

const READS: Record<AssertionType, (property: string | null) => string> = {
  status: () => 'status code',
  response_time: () => 'response time (ms)',
  header: (property) => `header ${property}`,
  json_path: (property) => `${property}`,
  body_regex: () => 'body',
  css_text: (property) => `text of ${property}`,
};

/** An assertion in words: "$.temp is less than 80". */
export function assertionText({ type, property, operator, value }: MonitorAssertion): string {
  return [READS[type](property), OPERATOR_LABEL[operator].replace(/ \(.*\)$/, ''), value ?? '']
    .filter(Boolean)
    .join(' ');
}

/** The monitor form's response assertions (HTTP monitors), a row each to add and remove. */
export function AssertionFields({
  assertions,
  onChange,
  apiField,
}: {
  assertions: AssertionDraft[];
  onChange: (assertions: AssertionDraft[]) => void;
  apiField: (field: string) => string | undefined;
}) {
  const [nextKey, setNextKey] = useState(assertions.length);
  const change = (key: number, update: Partial<AssertionDraft>) =>
    onChange(assertions.map((item) => (item.key === key ? { ...item, ...update } : item)));

  return (
    <fieldset className="field tracked-values">
      <legend>Assertions</legend>
      <p className="hint">
        Conditions every check’s response must meet, checked after the status range and keyword. A check that fails one
        says which, with the value it read (“$.temp is 83, expected &lt; 80”).
      </p>
      {assertions.length === 0 ? <p className="muted small">No assertions.</p> : null}
      <ol className="tracked-list">
        {assertions.map((item, index) => {
          const n = index + 1;
          const prefix = `assertion-${item.key}`;
          const property = PROPERTY[item.type];
          const operators = OPERATORS[item.type];
          const needsValue = item.operator !== 'exists' && item.operator !== 'not_exists';
          return (
            <li key={item.key} className="tracked-row">
              <SelectField
                id={`${prefix}-type`}
                label={`What assertion ${n} reads`}
                value={item.type}
                onChange={(type) =>
                  change(item.key, {
                    type,
                    operator: OPERATORS[type].includes(item.operator) ? item.operator : OPERATORS[type][0],
                  })
                }
                options={TYPES}
                error={apiField(`assertions[${index}].type`)}
              />
              {property ? (
                <TextField
                  id={`${prefix}-property`}
                  label={`${property.label} of assertion ${n}`}
                  required
                  maxLength={500}
                  spellCheck={false}
                  placeholder={property.placeholder}
                  value={item.property}
                  onChange={(value) => change(item.key, { property: value })}
                  error={apiField(`assertions[${index}].property`)}
                />
              ) : null}
              <SelectField
                id={`${prefix}-operator`}
                label={`Condition of assertion ${n}`}
                value={item.operator}
                onChange={(operator) => change(item.key, { operator })}
                options={operators.map((operator) => ({ value: operator, label: OPERATOR_LABEL[operator] }))}
                error={apiField(`assertions[${index}].operator`)}
              />
              {needsValue ? (
                <TextField
                  id={`${prefix}-value`}
                  label={`Value of assertion ${n}`}
                  required
                  maxLength={1000}
                  spellCheck={false}
                  value={item.value}
                  onChange={(value) => change(item.key, { value })}
                  error={apiField(`assertions[${index}].value`)}
                />
              ) : null}
              <button
                type="button"
                className="button button-small button-danger-outline"
                onClick={() => onChange(assertions.filter((other) => other.key !== item.key))}
              >
                Remove assertion {n}
              </button>
            </li>
          );
        })}
      </ol>
      {apiField('assertions') ? <p className="field-error">{apiField('assertions')}</p> : null}
      <button
        type="button"
        className="button button-small button-secondary"
        onClick={() => {
          onChange([...assertions, { key: nextKey, type: 'status', property: '', operator: 'equals', value: '' }]);
          setNextKey(nextKey + 1);
        }}
      >
        Add an assertion
      </button>
    </fieldset>
  );
}

import { Badge } from '../components/Badge';
import { formatDateTime, formatMs } from '../format';
import type { DeliveryAttempt, WebhookDelivery } from '../types';

const answered = (attempt: DeliveryAttempt) =>
  attempt.response_status !== null && attempt.response_status >= 200 && attempt.response_status < 300;

export function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <section aria-labelledby="attempts-heading" className="card">
      <h2 id="attempts-heading">Attempts ({delivery.attempts.length})</h2>
      {delivery.attempts.length === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <ol className="attempt-list">
          {delivery.attempts.map((attempt, index) => (
            <li key={`${attempt.at}-${index}`} className="attempt" data-attempt={index + 1}>
              <h3 className="h-small">
                Attempt {index + 1}:{' '}
                {answered(attempt) ? (
                  <Badge tone="success">Delivered</Badge>
                ) : (
                  <Badge tone="danger">Not delivered</Badge>
                )}
              </h3>
              <dl className="meta-grid">
                <div>
                  <dt>At</dt>
                  <dd>{formatDateTime(attempt.at)}</dd>
                </div>
                <div>
                  <dt>Answer</dt>
                  <dd>{attempt.response_status !== null ? `HTTP ${attempt.response_status}` : 'None'}</dd>
                </div>
                <div>
                  <dt>Took</dt>
                  <dd>{formatMs(attempt.duration_ms)}</dd>
                </div>
              </dl>
              {attempt.error ? <p className="text-danger">What went wrong: {attempt.error}</p> : null}
              {attempt.response_body ? (
                <>
                  <p className="small">The receiver’s answer (its first 4 KiB):</p>
                  <pre className="response-body">{attempt.response_body}</pre>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function RequestSent({ delivery }: { delivery: WebhookDelivery }) {
  const headers = Object.entries(delivery.request.headers);
  return (
    <section aria-labelledby="request-heading" className="card">
      <h2 id="request-heading">What was sent</h2>
      <p className="small muted">The signature is shown; the secret never is.</p>
      <h3 className="h-small">Headers</h3>
      <dl className="header-list">
        {headers.map(([name, value]) => (
          <div key={name}>
            <dt>
              <code>{name}</code>
            </dt>
            <dd className="value">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="h-small">Body</h3>
      <pre className="response-body">{prettyJson(delivery.request.body)}</pre>
    </section>
  );
}

/** A JSON body, indented for reading; anything else as it was. */
function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

import { formatBytes, formatDateTime } from '../format';
import type { Report } from '../types';
import { runInProgress } from './ReportBits';
import { POLL_MS } from './ReportBits';

/**
 * What generation is doing, in words, in a live region: waiting for the API's answer, a run queued or generating
 * (with how often the page checks), then how the run started here ended.
 */
export function ReportProgress({
  report,
  generating,
  followed,
}: {
  report: Report;
  generating: boolean;
  followed: string | null;
}) {
  const running = report.runs.find(runInProgress);
  const ended = report.runs.find((run) => run.id === followed && !runInProgress(run));
  let content = null;
  if (generating) {
    content = (
      <p className="progress">
        Generating the report… Vigil waits up to 30 seconds for it; a longer one is followed here until it is ready.
      </p>
    );
  } else if (running) {
    content = (
      <p className="progress">
        {running.status === 'queued'
          ? `The run requested ${formatDateTime(running.created_at)} is queued, waiting for a worker.`
          : `The run requested ${formatDateTime(running.created_at)} is being generated.`}{' '}
        This page checks again every {POLL_MS / 1000} seconds.
      </p>
    );
  } else if (ended?.status === 'ready') {
    content = (
      <p className="alert alert-success">
        The report is ready: {formatBytes(ended.size ?? 0)}, generated {formatDateTime(ended.generated_at)}. Download it
        from the runs below.
      </p>
    );
  } else if (ended?.status === 'failed') {
    content = (
      <div className="alert alert-danger">
        <p className="alert-title">The report could not be generated</p>
        <p>{ended.failure ?? 'The service gave no reason.'}</p>
      </div>
    );
  }
  return (
    <div role="status" className="report-progress">
      {content}
    </div>
  );
}

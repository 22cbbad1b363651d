import type { Schemas } from '../api-client';
import { isRecord } from './check';

export type Source = Schemas['ReleaseCheckSource'];

/** Where the change under test comes from, as the CI job sees it, and a line saying so; or why there is none. */
export type CiSource = { source: Source; said: string } | { source: null; said: string | null };

type Env = Record<string, string | undefined>;

const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/i;
const REPOSITORY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

/**
 * The release check's `source` from the CI environment: GitHub Actions (the repository, and for a pull request its
 * number, head commit and branch, from the event file; else the pushed commit) or GitLab CI (the project, commit,
 * merge request and branch). Null outside CI, or when a variable it needs is missing or malformed (then `said` says
 * which, so the job's log explains why the pull request shows no status).
 */
export function sourceFromCi(env: Env, readFile: (path: string) => string): CiSource {
  if (env.GITHUB_ACTIONS === 'true') return fromGitHubActions(env, readFile);
  if (env.GITLAB_CI === 'true') return fromGitLabCi(env);
  return { source: null, said: null };
}

function fromGitHubActions(env: Env, readFile: (path: string) => string): CiSource {
  const repository = env.GITHUB_REPOSITORY;
  let commit = env.GITHUB_SHA;
  let pullRequest: number | undefined;
  let branch = env.GITHUB_REF_TYPE === 'branch' ? env.GITHUB_REF_NAME : undefined;
  if (env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target') {
    // GITHUB_SHA is the merge commit GitHub made for the run; a status belongs on the pull request's head commit.
    const head = pullRequestOf(env.GITHUB_EVENT_PATH, readFile);
    if (!head) return unfilled('GitHub Actions', 'the pull request in GITHUB_EVENT_PATH could not be read');
    ({ number: pullRequest, sha: commit } = head);
    branch = env.GITHUB_HEAD_REF || head.branch;
  }
  return filled('github', 'GitHub Actions', { repository, commit, pullRequest, branch }, [
    'GITHUB_REPOSITORY',
    'GITHUB_SHA',
  ]);
}

function fromGitLabCi(env: Env): CiSource {
  const iid = env.CI_MERGE_REQUEST_IID;
  return filled(
    'gitlab',
    'GitLab CI',
    {
      repository: env.CI_PROJECT_PATH,
      commit: env.CI_COMMIT_SHA,
      pullRequest: iid && /^\d+$/.test(iid) ? Number(iid) : undefined,
      branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_BRANCH || undefined,
    },
    ['CI_PROJECT_PATH', 'CI_COMMIT_SHA'],
  );
}

function pullRequestOf(
  path: string | undefined,
  readFile: (path: string) => string,
): { number: number; sha: string; branch?: string } | null {
  if (!path) return null;
  try {
    const event: unknown = JSON.parse(readFile(path));
    const pull = isRecord(event) && isRecord(event.pull_request) ? event.pull_request : null;
    const head = pull && isRecord(pull.head) ? pull.head : null;
    if (!pull || !head || !Number.isInteger(pull.number) || typeof head.sha !== 'string') return null;
    return {
      number: pull.number as number,
      sha: head.sha,
      ...(typeof head.ref === 'string' ? { branch: head.ref } : {}),
    };
  } catch {
    return null;
  }
}

function filled(
  provider: Source['provider'],
  ci: string,
  found: { repository?: string; commit?: string; pullRequest?: number; branch?: string },
  names: [repository: string, commit: string],
): CiSource {
  const { repository, commit, pullRequest, branch } = found;
  if (!repository || !REPOSITORY.test(repository)) return unfilled(ci, `${names[0]} is not a repository path`);
  if (!commit || !SHA.test(commit)) return unfilled(ci, `${names[1]} is not a full commit hash`);
  const source: Source = {
    provider,
    repository,
    commit_sha: commit.toLowerCase(),
    ...(pullRequest !== undefined && pullRequest > 0 ? { pull_request: pullRequest } : {}),
    ...(branch ? { branch: branch.slice(0, 255) } : {}),
  };
  const request = source.pull_request
    ? ` (${provider === 'github' ? 'pull' : 'merge'} request #${source.pull_request})`
    : '';
  return {
    source,
    said: `source: ${repository}@${source.commit_sha.slice(0, 12)}${request} on ${provider}, from ${ci}; --no-source leaves it out`,
  };
}

function unfilled(ci: string, why: string): CiSource {
  return { source: null, said: `source: not set from ${ci}: ${why}` };
}

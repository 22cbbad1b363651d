import { parseGateArgs } from './args';
import { sourceFromCi } from './ci-source';

const HEAD = '3f786850e387550fdab836ed7e6dc881de23001b';
const MERGE = 'a'.repeat(40);
const files: Record<string, string> = {
  '/runner/event.json': JSON.stringify({ pull_request: { number: 482, head: { sha: HEAD, ref: 'new-pricing' } } }),
  '/runner/push.json': JSON.stringify({ ref: 'refs/heads/main' }),
  'request.json': JSON.stringify({ name: 'r', request_key: 'k' }),
  'with-source.json': JSON.stringify({ name: 'r', request_key: 'k', source: { provider: 'gitlab' } }),
};
const readFile = (path: string) => {
  if (!(path in files)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return files[path];
};

const githubPullRequest = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SHA: MERGE,
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: '/runner/event.json',
  GITHUB_HEAD_REF: 'new-pricing',
  GITHUB_REF_NAME: '482/merge',
  GITHUB_REF_TYPE: 'branch',
};
const gitlabMergeRequest = {
  GITLAB_CI: 'true',
  CI_PROJECT_PATH: 'acme/web/shop',
  CI_COMMIT_SHA: HEAD.toUpperCase(),
  CI_MERGE_REQUEST_IID: '17',
  CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'new-pricing',
  CI_COMMIT_BRANCH: '',
};

describe('the release check’s source, from the CI environment', () => {
  it('GitHub Actions, a pull request: its number, head commit (not the merge commit) and branch', () => {
    expect(sourceFromCi(githubPullRequest, readFile)).toEqual({
      source: {
        provider: 'github',
        repository: 'acme/shop',
        commit_sha: HEAD,
        pull_request: 482,
        branch: 'new-pricing',
      },
      said: `source: acme/shop@${HEAD.slice(0, 12)} (pull request #482) on github, from GitHub Actions; --no-source leaves it out`,
    });
  });

  it('GitHub Actions, a push: the pushed commit and branch', () => {
    const push = {
      ...githubPullRequest,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: '/runner/push.json',
      GITHUB_SHA: HEAD,
      GITHUB_REF_NAME: 'main',
      GITHUB_HEAD_REF: '',
    };
    expect(sourceFromCi(push, readFile).source).toEqual({
      provider: 'github',
      repository: 'acme/shop',
      commit_sha: HEAD,
      branch: 'main',
    });
  });

  it('GitLab CI, a merge request pipeline: the project path, commit (in lower case), IID and source branch', () => {
    expect(sourceFromCi(gitlabMergeRequest, readFile).source).toEqual({
      provider: 'gitlab',
      repository: 'acme/web/shop',
      commit_sha: HEAD,
      pull_request: 17,
      branch: 'new-pricing',
    });
    const branchPipeline = {
      ...gitlabMergeRequest,
      CI_MERGE_REQUEST_IID: undefined,
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: undefined,
      CI_COMMIT_BRANCH: 'main',
    };
    expect(sourceFromCi(branchPipeline, readFile).source).toEqual({
      provider: 'gitlab',
      repository: 'acme/web/shop',
      commit_sha: HEAD,
      branch: 'main',
    });
  });

  it('nothing outside CI; nothing, and the reason, when a variable is missing or malformed', () => {
    expect(sourceFromCi({}, readFile)).toEqual({ source: null, said: null });
    expect(sourceFromCi({ GITHUB_ACTIONS: 'true' }, readFile)).toEqual({
      source: null,
      said: 'source: not set from GitHub Actions: GITHUB_REPOSITORY is not a repository path',
    });
    expect(sourceFromCi({ ...githubPullRequest, GITHUB_EVENT_PATH: '/runner/missing.json' }, readFile)).toEqual({
      source: null,
      said: 'source: not set from GitHub Actions: the pull request in GITHUB_EVENT_PATH could not be read',
    });
    expect(sourceFromCi({ ...gitlabMergeRequest, CI_COMMIT_SHA: 'abc1234' }, readFile).said).toBe(
      'source: not set from GitLab CI: CI_COMMIT_SHA is not a full commit hash',
    );
  });

  it('vigil-gate fills the request’s source and says so; --no-source and a source in the request win', () => {
    const args = ['--base-url', 'https://vigil.example.com', '--request', 'request.json', '--api-key', 'k'];
    const filled = parseGateArgs(args, gitlabMergeRequest, readFile);
    expect(filled).toMatchObject({
      ok: true,
      options: { request: { source: { provider: 'gitlab', pull_request: 17 } } },
      notes: [expect.stringMatching(/^source: acme\/web\/shop@3f786850e387 \(merge request #17\) on gitlab/)],
    });
    const off = parseGateArgs([...args, '--no-source'], gitlabMergeRequest, readFile);
    expect(off).toMatchObject({ ok: true, notes: [] });
    expect(off.ok && 'source' in off.options.request).toBe(false);
    const own = parseGateArgs(
      [...args.slice(0, 3), 'with-source.json', ...args.slice(4)],
      gitlabMergeRequest,
      readFile,
    );
    expect(own).toMatchObject({ ok: true, notes: [], options: { request: { source: { provider: 'gitlab' } } } });
    expect(own.ok && own.options.request.source).toEqual({ provider: 'gitlab' });
  });
});

import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { CrawlSummary } from '../types';

/** The API's defaults for a crawl (openapi.yaml `StartCrawlRequest`). */
const DEFAULT_MAX_PAGES = 200;
const DEFAULT_MAX_DEPTH = 5;

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function StartCrawlForm({ onStarted }: { onStarted: (crawl: CrawlSummary) => void }) {
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState(String(DEFAULT_MAX_PAGES));
  const [maxDepth, setMaxDepth] = useState(String(DEFAULT_MAX_DEPTH));
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  // An empty number field means the API's default; anything else goes as typed, for the API to judge.
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = url.trim() ? null : 'Enter the address to start from, such as https://example.com/.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const crawl = await ok(
        api.POST('/crawl', {
          body: {
            url: url.trim(),
            max_pages: number(maxPages) ?? DEFAULT_MAX_PAGES,
            max_depth: number(maxDepth) ?? DEFAULT_MAX_DEPTH,
            ...(lines(include).length ? { include: lines(include) } : {}),
            ...(lines(exclude).length ? { exclude: lines(exclude) } : {}),
          },
        }),
      );
      onStarted(crawl);
    },
  });
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';

  return (
    <section aria-labelledby="start-crawl-heading" className="card">
      <h2 id="start-crawl-heading">Start a crawl</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The crawl was not started: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} />
        )}
        <TextField
          id="crawl-url"
          type="url"
          label="Start URL"
          required
          maxLength={2048}
          inputMode="url"
          spellCheck={false}
          placeholder="https://example.com/"
          hint="A public http(s) address; the crawl stays on its origin."
          value={url}
          onChange={setUrl}
          error={local ?? fieldError(error, 'url')}
        />
        <div className="crawl-form-grid">
          <TextField
            id="crawl-max-pages"
            type="number"
            label="Max pages"
            optional
            min={1}
            max={5000}
            inputMode="numeric"
            hint={`1 to 5000: the crawl stops after listing this many pages. Empty: ${DEFAULT_MAX_PAGES}.`}
            value={maxPages}
            onChange={setMaxPages}
            error={fieldError(error, 'max_pages')}
          />
          <TextField
            id="crawl-max-depth"
            type="number"
            label="Max depth"
            optional
            min={0}
            max={20}
            inputMode="numeric"
            hint={`0 to 20: how many links to follow from the start URL. Empty: ${DEFAULT_MAX_DEPTH}.`}
            value={maxDepth}
            onChange={setMaxDepth}
            error={fieldError(error, 'max_depth')}
          />
          <TextAreaField
            id="crawl-include"
            label="Include"
            optional
            rows={3}
            spellCheck={false}
            placeholder="/blog/**"
            hint="Path globs, one per line: when given, only matching paths are crawled."
            value={include}
            onChange={setInclude}
            error={fieldError(error, 'include')}
          />
          <TextAreaField
            id="crawl-exclude"
            label="Exclude"
            optional
            rows={3}
            spellCheck={false}
            placeholder="/admin/**"
            hint="Path globs, one per line: matching paths are not crawled."
            value={exclude}
            onChange={setExclude}
            error={fieldError(error, 'exclude')}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start crawl'}
        </button>
      </form>
    </section>
  );
}

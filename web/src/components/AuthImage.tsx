import { useEffect, useState } from 'react';
import { fetchObjectUrl, ProblemError } from '../api';

/** An image behind the API's authentication: fetched with the Bearer token and shown through an object URL. */
export function AuthImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  const [state, setState] = useState<{ url?: string; error?: string }>({});

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | undefined;
    setState({});
    fetchObjectUrl(src, controller.signal).then(
      (url) => {
        objectUrl = url;
        setState({ url });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          error: error instanceof ProblemError ? `could not be loaded (HTTP ${error.status})` : 'could not be loaded',
        });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src]);

  if (state.error) {
    return (
      <p className="image-placeholder image-error">
        {alt}: {state.error}
      </p>
    );
  }
  if (!state.url) {
    return (
      <p className="image-placeholder" aria-busy="true">
        Loading {alt.charAt(0).toLowerCase() + alt.slice(1)}…
      </p>
    );
  }
  return <img className={className} src={state.url} alt={alt} data-loaded="true" />;
}

import { useEffect, useState } from 'react';
import { fetchObjectUrl, ProblemError } from '../api';

/** An image behind the API's authentication: fetched with the Bearer token and shown through an object URL. */
export function AuthImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  // What was loaded, and for which source: a new `src` shows "Loading" until its own answer arrives.
  const [state, setState] = useState<{ src: string; url?: string; error?: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | undefined;
    fetchObjectUrl(src, controller.signal).then(
      (url) => {
        objectUrl = url;
        if (controller.signal.aborted) URL.revokeObjectURL(url);
        else setState({ src, url });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          src,
          error: error instanceof ProblemError ? `could not be loaded (HTTP ${error.status})` : 'could not be loaded',
        });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src]);

  const current = state?.src === src ? state : null;
  if (current?.error) {
    return (
      <p className="image-placeholder image-error">
        {alt}: {current.error}
      </p>
    );
  }
  if (!current?.url) {
    return (
      <p className="image-placeholder" aria-busy="true">
        Loading {alt.charAt(0).toLowerCase() + alt.slice(1)}…
      </p>
    );
  }
  return <img className={className} src={current.url} alt={alt} data-loaded="true" />;
}

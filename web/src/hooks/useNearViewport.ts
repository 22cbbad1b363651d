import { type RefObject, useEffect, useState } from 'react';

/** How long an element stays near the viewport before it counts: pairs flown past with the keyboard do not. */
const DWELL_MS = 150;

/**
 * Whether the element has come near the viewport (within `margin`) and stayed there a moment, latched: once true it
 * stays true, so what was mounted keeps its state. A page of hundreds of pairs mounts, and fetches the screenshots of,
 * only those a person stops at. Content in a closed `<details>` is not laid out, so it comes near only once opened.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '600px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        clearTimeout(timer);
        if (entries.at(-1)?.isIntersecting) timer = setTimeout(() => setNear(true), DWELL_MS);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref, margin, near]);
  return near;
}

import { type RefObject, useEffect, useState } from 'react';

/** How long the page must stay still before what is near the viewport counts: pairs flown past do not. */
const DWELL_MS = 150;

/** When the page last scrolled, by any means (wheel, keyboard, `scrollIntoView`): one passive listener for all pairs. */
let lastScrollAt = -Infinity;
document.addEventListener('scroll', () => (lastScrollAt = performance.now()), { passive: true });

/**
 * Whether the element has come near the viewport (within `margin`) while the page stood still a moment, latched: once
 * true it stays true, so what was mounted keeps its state. A page of hundreds of pairs mounts, and fetches the
 * screenshots of, only those a person stops at. The moment counts from the last scroll, not from the element's
 * arrival: a held `j` or a fast scroll keeps a pair inside the margin for many steps, longer in all than a moment,
 * without anyone stopping there. Content in a closed `<details>` is not laid out, so it comes near only once opened.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '600px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      const still = performance.now() - lastScrollAt;
      if (still >= DWELL_MS) setNear(true);
      else timer = setTimeout(settle, DWELL_MS - still);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        clearTimeout(timer);
        if (entries.at(-1)?.isIntersecting) timer = setTimeout(settle, DWELL_MS);
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

// Which Chromium captures run on; no Playwright here, so the configuration can read it cheaply.
import { accessSync, constants } from 'node:fs';

/** Debian's build of Playwright's own headless browser (package chromium-headless-shell), the one captures use. */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's full Chromium (package chromium): what captures fall back to, and what the web tests drive. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The browser for captures: the headless shell when installed, else the full Chromium. Same version, same engine;
 * the shell leaves out the browser UI a headless capture never shows, and captures in about 60% of the time
 * (decision 0005). Both sides of a comparison always run on the one browser a worker launched.
 */
export function defaultChromiumPath(): string {
  try {
    accessSync(HEADLESS_SHELL_PATH, constants.X_OK);
    return HEADLESS_SHELL_PATH;
  } catch {
    return FULL_CHROMIUM_PATH;
  }
}

export const DEFAULT_CHROMIUM_PATH = defaultChromiumPath();

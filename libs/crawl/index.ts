export { readRobots, readSitemaps, type RobotsOutcome, type RobotsRules } from './discovery';
export { HostLimiter } from './host-limiter';
export { directives, headerRobotsDirectives, type PageMarkup, parsePageMarkup } from './html';
export { type FetchOutcome, type FetchRequest, PoliteFetcher, retryAfterMs, USER_AGENT } from './polite-fetcher';
export { globProblem, normalizeUrl, pathFilter } from './urls';

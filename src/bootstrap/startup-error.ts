/** A failure to start, already phrased as one line for the operator: what is wrong and how to fix it. */
export class StartupError extends Error {}

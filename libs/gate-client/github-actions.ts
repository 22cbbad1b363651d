/** GitHub Actions sets GITHUB_ACTIONS=true in every step; the runner reads workflow commands from both streams. */
export function isGitHubActions(env: Record<string, string | undefined>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

export const ANNOTATION_TITLE = 'Vigil release gate';

/**
 * A workflow command that annotates the run (`::notice::`, `::error::`), escaped as the runner expects, so that no
 * text can end the command early or start another one.
 */
export function annotation(kind: 'notice' | 'error', message: string, title = ANNOTATION_TITLE): string {
  const data = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::${kind} title=${property(title)}::${data(message)}`;
}

import { assertPublicUrl, TargetNotPublicError } from '../../../libs/net-guard';
import { DomainError } from '../errors/domain-errors';

/**
 * Refuses, as a 400 naming `field`, a URL that does not resolve to public addresses (unless private targets are
 * allowed). Every navigation is checked again when the page is fetched; this is the early, clear answer.
 */
export async function assertPublicTarget(url: string, field: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  try {
    await assertPublicUrl(url);
  } catch (error) {
    if (!(error instanceof TargetNotPublicError)) throw error;
    // Says what is wrong without echoing resolved addresses: no mapping of internal names through this API.
    const message = `must be publicly reachable; ${error.host} is not a public address (${error.reason.replace(/_/g, ' ')})`;
    throw new DomainError('target_not_public', `${field} ${message}`, { errors: [{ field, message }] });
  }
}

import type { CodeHostProvider } from '../alerts/entities/alert-destination.entity';

export interface RoutableConnection {
  id: string;
  provider: CodeHostProvider;
  namespace: string;
}

/**
 * The connection that serves a repository: of the provider's connections whose namespace is the repository or one of
 * its parents (`acme` serves `acme/site`, `platform/web` serves `platform/web/shop`), the longest; case never matters.
 */
export function connectionFor<T extends RoutableConnection>(
  source: { provider: CodeHostProvider; repository: string },
  connections: readonly T[],
): T | null {
  const repository = source.repository.toLowerCase();
  let best: T | null = null;
  for (const connection of connections) {
    if (connection.provider !== source.provider) continue;
    const namespace = connection.namespace.toLowerCase();
    if (repository !== namespace && !repository.startsWith(`${namespace}/`)) continue;
    if (!best || namespace.length > best.namespace.length) best = connection;
  }
  return best;
}

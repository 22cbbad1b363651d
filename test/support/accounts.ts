import { randomBytes } from 'node:crypto';
import type { Scope, UserRole } from '../../src/common/auth/scopes';
import { TEST_ADMIN } from '../setup/test-environment';
import type { ApiClient } from './api-client';

export interface Account {
  id: string;
  email: string;
  password: string;
  /** Signed in with a session, acting in the person's own workspace. */
  session: ApiClient;
  /** The personal workspace every person an administrator adds gets. */
  workspaceId: string;
}

export async function signIn(api: ApiClient, email: string, password: string): Promise<ApiClient> {
  const response = await api.post<{ access_token: string }>('/auth/login', { email, password });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return api.withToken(response.body.access_token);
}

export function signInAsAdmin(api: ApiClient): Promise<ApiClient> {
  return signIn(api, TEST_ADMIN.email, TEST_ADMIN.password);
}

/** A new person, created by the bootstrap administrator through the API, and signed in. */
export async function createAccount(api: ApiClient, role: UserRole = 'member'): Promise<Account> {
  const admin = await signInAsAdmin(api);
  const email = `person-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const created = await admin.post<{ id: string }>('/admin/users', { email, password, role });
  if (created.status !== 201) throw new Error(`creating ${email} failed: ${created.status}`);
  const session = await signIn(api, email, password);
  const workspaces = await session.get<{ data: { id: string }[] }>('/workspaces');
  return { id: created.body.id, email, password, session, workspaceId: workspaces.body.data[0].id };
}

export interface IssuedKey {
  id: string;
  secret: string;
  /** Calls with this key. */
  client: ApiClient;
}

export async function issueKey(
  account: Account,
  scopes: Scope[],
  extra: Record<string, unknown> = {},
): Promise<IssuedKey> {
  const response = await account.session.post<{ id: string; secret: string }>('/users/me/api-keys', {
    name: `key ${randomBytes(3).toString('hex')}`,
    scopes,
    ...extra,
  });
  if (response.status !== 201)
    throw new Error(`issuing a key failed: ${response.status} ${JSON.stringify(response.body)}`);
  return {
    id: response.body.id,
    secret: response.body.secret,
    client: account.session.withApiKey(response.body.secret),
  };
}

// Type-checked by typed-client.spec.ts: what an integrator writes against the client generated from openapi.yaml.
import { createVigilClient, type Schemas } from '../../libs/api-client';

export async function sample(): Promise<string[]> {
  const client = createVigilClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.VIGIL_API_KEY });

  const me = await client.GET('/users/me');
  if (me.error) {
    const problem: Schemas['Problem'] = me.error;
    throw new Error(`${problem.code}: ${problem.detail ?? problem.title}`);
  }
  const requestsToday: number = me.data.usage.api_requests_today;

  const created = await client.POST('/users/me/api-keys', {
    body: { name: 'ci', scopes: ['monitors:read', 'monitors:write'] },
  });
  const secret: string | undefined = created.data?.secret;

  const page = await client.GET('/users/me/api-keys', { params: { query: { page: 2, per_page: 50 } } });
  const prefixes = (page.data?.data ?? []).map((key) => key.prefix);

  // The documented minimal requests: every field with a default stays optional under the generator's defaults.
  const check = await client.POST('/release-checks', {
    body: {
      name: 'Release 42',
      production_url: 'https://www.example.com',
      preview_url: 'https://preview.example.com',
      request_key: 'build-42',
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
    },
  });
  await client.POST('/monitors', { body: { name: 'Pricing', url: 'https://www.example.com/pricing' } });
  await client.POST('/crawl', { body: { url: 'https://www.example.com/' } });
  const gate: 'pending' | 'passed' | 'failed' | undefined = check.data?.gate;

  // @ts-expect-error an unknown scope is a type error, not a runtime 400
  await client.POST('/users/me/api-keys', { body: { name: 'x', scopes: ['monitors:delete'] } });

  return [String(requestsToday), secret ?? '', gate ?? '', ...prefixes];
}

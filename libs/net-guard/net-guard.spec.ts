import { assertPublicUrl, isPublicAddress, TargetNotPublicError, type TargetRefusalReason } from './index';

/** Runs assertPublicUrl and returns the refusal, or null when the URL passed. */
async function refusalOf(
  url: string,
  options?: Parameters<typeof assertPublicUrl>[1],
): Promise<TargetNotPublicError | null> {
  try {
    await assertPublicUrl(url, options);
    return null;
  } catch (error) {
    if (error instanceof TargetNotPublicError) return error;
    throw error;
  }
}

const failingLookup = (): Promise<string[]> => Promise.reject(new Error('lookup must not be called'));

describe('isPublicAddress', () => {
  const publicAddresses = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1', // just above 172.16/12
    '100.128.0.1', // just above 100.64/10
    '2606:4700::1',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822', // NAT64 of 93.184.216.34
    '2002:5db8:d822::1', // 6to4 of 93.184.216.34
    '[2606:4700::1]',
  ];
  const privateAddresses = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '100.64.0.1', // carrier-grade NAT
    '100.127.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1', // documentation
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1', // benchmarking
    '192.0.0.8',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    '2001:db8::1', // documentation
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b:1::5db8:d822', // local-use NAT64 prefix
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '::a00:1', // deprecated IPv4-compatible form
    '[::1]',
    'not-an-ip',
    '',
    '256.1.1.1',
  ];

  it.each(publicAddresses)('treats %s as public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(privateAddresses)('treats %j as not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('assertPublicUrl', () => {
  const refusals: Array<[string, TargetRefusalReason, string | null]> = [
    ['http://127.0.0.1/', 'private_address', '127.0.0.1'],
    ['http://127.0.0.1:8080/admin', 'private_address', '127.0.0.1'],
    ['http://2130706433/', 'private_address', '127.0.0.1'], // the URL parser normalizes integer IPv4
    ['http://0x7f.1/', 'private_address', '127.0.0.1'],
    ['http://10.1.2.3/', 'private_address', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data/', 'private_address', '169.254.169.254'],
    ['http://[::1]:3000/', 'private_address', '::1'],
    ['http://[::ffff:127.0.0.1]/', 'private_address', '::ffff:7f00:1'],
    ['http://[fd00::1]/', 'private_address', 'fd00::1'],
    ['https://user:secret@example.com/', 'credentials_in_url', null],
    ['https://user@example.com/', 'credentials_in_url', null],
    ['ftp://example.com/file', 'unsupported_scheme', null],
    ['file:///etc/passwd', 'unsupported_scheme', null],
    ['javascript:alert(1)', 'unsupported_scheme', null],
    ['not a url', 'invalid_url', null],
    ['/relative/path', 'invalid_url', null],
  ];

  it.each(refusals)('refuses %s (%s)', async (url, reason, address) => {
    const refusal = await refusalOf(url, { lookup: failingLookup });
    expect(refusal).toBeInstanceOf(TargetNotPublicError);
    expect(refusal).toMatchObject({ url, reason, address });
  });

  it('refuses a name that resolves to a private address', async () => {
    const refusal = await refusalOf('https://intranet.example.com/', { lookup: () => Promise.resolve(['10.0.0.5']) });
    expect(refusal).toMatchObject({ reason: 'private_address', host: 'intranet.example.com', address: '10.0.0.5' });
    expect(refusal?.message).toContain('10.0.0.5');
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const lookup = (): Promise<string[]> => Promise.resolve(['93.184.216.34', '2606:4700::1', '::ffff:192.168.0.1']);
    const refusal = await refusalOf('https://mixed.example.com/', { lookup });
    expect(refusal).toMatchObject({ reason: 'private_address', address: '::ffff:192.168.0.1' });
  });

  it('passes the host name to the lookup and accepts only-public answers', async () => {
    const hosts: string[] = [];
    const lookup = (host: string): Promise<string[]> => {
      hosts.push(host);
      return Promise.resolve(['93.184.216.34', '2606:2800:220:1::']);
    };
    await expect(assertPublicUrl('https://www.example.com:8443/path?q=1', { lookup })).resolves.toBeUndefined();
    expect(hosts).toEqual(['www.example.com']);
  });

  it('refuses an unresolvable name and one with no addresses', async () => {
    const failed = await refusalOf('https://nowhere.example/', {
      lookup: () => Promise.reject(new Error('ENOTFOUND')),
    });
    expect(failed).toMatchObject({ reason: 'unresolvable', host: 'nowhere.example', address: null });
    const empty = await refusalOf('https://empty.example/', { lookup: () => Promise.resolve([]) });
    expect(empty).toMatchObject({ reason: 'unresolvable' });
  });

  it.each(['http://localhost/', 'http://LOCALHOST:3000/', 'http://localhost./', 'http://app.localhost/'])(
    'refuses %s without a lookup',
    async (url) => {
      const refusal = await refusalOf(url, { lookup: () => Promise.resolve(['93.184.216.34']) });
      expect(refusal).toMatchObject({ reason: 'private_address' });
    },
  );

  it('refuses the real localhost name with the default resolver options', async () => {
    expect(await refusalOf('http://localhost:9/')).toMatchObject({ reason: 'private_address', host: 'localhost' });
  });

  it.each([
    'http://93.184.216.34/',
    'https://93.184.216.34:8443/x',
    'https://[2606:4700::1]/',
    'http://[64:ff9b::5db8:d822]/',
  ])('allows the public literal %s without a lookup', async (url) => {
    await expect(assertPublicUrl(url, { lookup: failingLookup })).resolves.toBeUndefined();
  });

  it('allowPrivate lifts the address check only', async () => {
    const options = { allowPrivate: true, lookup: failingLookup };
    for (const url of ['http://127.0.0.1:3000/', 'http://localhost/', 'http://[::1]/', 'http://internal.corp/']) {
      await expect(assertPublicUrl(url, options)).resolves.toBeUndefined();
    }
    expect(await refusalOf('ftp://127.0.0.1/', options)).toMatchObject({ reason: 'unsupported_scheme' });
    expect(await refusalOf('http://a:b@127.0.0.1/', options)).toMatchObject({ reason: 'credentials_in_url' });
    expect(await refusalOf('nope', options)).toMatchObject({ reason: 'invalid_url' });
  });

  it('isAllowedAddress replaces the address predicate (test hook)', async () => {
    const options = { isAllowedAddress: (ip: string) => ip === '127.0.0.1', lookup: failingLookup };
    await expect(assertPublicUrl('http://127.0.0.1:8080/', options)).resolves.toBeUndefined();
    expect(await refusalOf('http://127.0.0.2:8080/', options)).toMatchObject({ reason: 'private_address' });
    expect(await refusalOf('http://93.184.216.34/', options)).toMatchObject({ reason: 'private_address' });
    // localhost stays refused by name whatever the predicate says.
    expect(await refusalOf('http://localhost:8080/', options)).toMatchObject({ reason: 'private_address' });
  });
});

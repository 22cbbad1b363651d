import { TestCertificateAuthority } from '../../test/support/test-certificates';
import { TestSite } from '../../test/support/test-site';
import { checkHttp, type HttpCheckRequest } from './index';

/**
 * The certificate an HTTPS check is served, read over the check's own connection: recorded when it verifies, and a
 * `certificate` failure naming the reason (with the certificate still read) when it does not. Real TLS servers on
 * 127.0.0.1 with certificates made here.
 */
describe('checkHttp over HTTPS', () => {
  let authority: TestCertificateAuthority;
  let site: TestSite;

  const request = (url: string): HttpCheckRequest => ({
    url,
    expectations: { statusMin: 200, statusMax: 399 },
    timeoutMs: 5_000,
    allowPrivate: true,
  });

  beforeAll(async () => {
    authority = await TestCertificateAuthority.create();
    authority.trust();
    site = await new TestSite().start({ certificate: await authority.issue({ daysLeft: 30 }) });
    site.set('/', '<title>Shop</title><p>Open</p>');
  });
  afterAll(() => site?.stop());

  it('records the certificate it was served: expiry, issuer, subject and fingerprint', async () => {
    const result = await checkHttp(request(`${site.origin}/`));
    expect(result).toMatchObject({ ok: true, failure: null });
    expect(result.certificate).toMatchObject({ issuer: 'CN=Vigil Test CA, O=Vigil tests', subject: 'CN=127.0.0.1' });
    expect(result.certificate?.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(Date.parse(result.certificate!.validFrom)).toBeLessThan(Date.now());
    const days = (Date.parse(result.certificate!.expiresAt) - Date.now()) / 86_400_000;
    expect(Math.floor(days)).toBe(30);
  });

  it('reads a renewed certificate on the next check: every check makes a full handshake', async () => {
    const first = await checkHttp(request(`${site.origin}/`));
    site.serveCertificate(await authority.issue({ daysLeft: 90 }));
    const second = await checkHttp(request(`${site.origin}/`));
    expect(second.certificate!.fingerprintSha256).not.toBe(first.certificate!.fingerprintSha256);
    expect(Math.floor((Date.parse(second.certificate!.expiresAt) - Date.now()) / 86_400_000)).toBe(90);
  });

  it('fails an expired certificate with the date, and still records it', async () => {
    site.serveCertificate(await authority.issue({ daysLeft: -3 }));
    const result = await checkHttp(request(`${site.origin}/`));
    expect(result).toMatchObject({ ok: false, failure: 'certificate', statusCode: null });
    expect(result.message).toMatch(/^the certificate of 127\.0\.0\.1 expired on \d{4}-\d\d-\d\d \(CERT_HAS_EXPIRED\)$/);
    expect(result.certificate?.expiresAt.slice(0, 10)).toBe(result.message!.match(/on (\S+)/)![1]);
  });

  it('fails a certificate for another host, and one from an authority nobody trusts', async () => {
    site.serveCertificate(await authority.issue({ daysLeft: 30, hosts: ['shop.example.com'] }));
    expect(await checkHttp(request(`${site.origin}/`))).toMatchObject({
      ok: false,
      failure: 'certificate',
      message: 'the certificate of 127.0.0.1 does not name this host (ERR_TLS_CERT_ALTNAME_INVALID)',
    });
    const stranger = await TestCertificateAuthority.create('Nobody Trusts Me');
    site.serveCertificate(await stranger.issue({ daysLeft: 30 }));
    const untrusted = await checkHttp(request(`${site.origin}/`));
    expect(untrusted).toMatchObject({ ok: false, failure: 'certificate' });
    expect(untrusted.message).toMatch(/^the certificate of 127\.0\.0\.1 is not issued by a trusted authority/);
    expect(untrusted.certificate?.issuer).toBe('CN=Nobody Trusts Me, O=Vigil tests');
  });

  it('keeps the SSRF guard on HTTPS connections: a name resolving to a private address is refused', async () => {
    const result = await checkHttp({
      ...request('https://intranet.example/'),
      allowPrivate: false,
      lookup: () => Promise.resolve(['10.1.2.3']),
    });
    expect(result).toMatchObject({ ok: false, failure: 'target_not_public', certificate: null });
  });

  it('records no certificate for plain HTTP', async () => {
    const plain = await new TestSite().start();
    plain.set('/', '<p>plain</p>');
    try {
      expect((await checkHttp(request(`${plain.origin}/`))).certificate).toBeNull();
    } finally {
      await plain.stop();
    }
  });
});

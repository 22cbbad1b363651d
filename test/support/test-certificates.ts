import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it loaded first.
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import * as x509 from '@peculiar/x509';

// Node's Web Crypto, typed as the DOM's (the library's types).
const webcrypto = globalThis.crypto;
x509.cryptoProvider.set(webcrypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** A certificate and its private key, PEM-encoded, as an HTTPS server takes them. */
export interface TestCertificate {
  cert: string;
  key: string;
}

export interface LeafOptions {
  /** Whole days of validity left from now (plus an hour, so that "5" reads as 5 days left all test long). */
  daysLeft: number;
  /** Names the certificate is valid for; defaults to 127.0.0.1 and localhost. */
  hosts?: string[];
}

/**
 * A certificate authority made for one test process, trusted by this process's TLS clients (`trust()`), like an
 * operator's private CA given to the service with NODE_EXTRA_CA_CERTS. It issues short-lived server certificates with
 * any expiry, so tests can serve one that expires in 5 days, a renewed one, or an expired one.
 */
export class TestCertificateAuthority {
  private constructor(
    private readonly keys: CryptoKeyPair,
    readonly certificate: x509.X509Certificate,
  ) {}

  static async create(name = 'Vigil Test CA'): Promise<TestCertificateAuthority> {
    const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      name: `CN=${name}, O=Vigil tests`,
      notBefore: new Date(Date.now() - DAY_MS),
      notAfter: new Date(Date.now() + 365 * DAY_MS),
      keys,
      signingAlgorithm: ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        // Every test CA has the same name: its key id is what lets OpenSSL pick the right one among those trusted.
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new TestCertificateAuthority(keys, certificate);
  }

  /** Adds this authority to the process's default trusted roots (the system's stay trusted). */
  trust(): void {
    tls.setDefaultCACertificates([...tls.getCACertificates('default'), this.certificate.toString('pem')]);
  }

  /** A server certificate for `hosts`, valid from yesterday until `daysLeft` days (and an hour) from now. */
  async issue({ daysLeft, hosts = ['127.0.0.1', 'localhost'] }: LeafOptions): Promise<TestCertificate> {
    const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const notAfter = new Date(Date.now() + daysLeft * DAY_MS + 3_600_000);
    const certificate = await x509.X509CertificateGenerator.create({
      subject: `CN=${hosts[0]}`,
      issuer: this.certificate.subject,
      notBefore: new Date(Math.min(Date.now() - DAY_MS, notAfter.getTime() - DAY_MS)),
      notAfter,
      signingKey: this.keys.privateKey,
      publicKey: keys.publicKey,
      signingAlgorithm: ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(false),
        await x509.AuthorityKeyIdentifierExtension.create(this.keys.publicKey),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          hosts.map((host): x509.JsonGeneralName => ({ type: isIP(host) ? 'ip' : 'dns', value: host })),
        ),
      ],
    });
    const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
    const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(pkcs8)
      .toString('base64')
      .replace(/(.{64})/g, '$1\n')
      .trim()}\n-----END PRIVATE KEY-----\n`;
    return { cert: certificate.toString('pem'), key };
  }
}

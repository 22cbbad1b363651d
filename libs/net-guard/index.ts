export * from './guard';
export { discardBody, fetchGuarded, RedirectError, refusalOf, untilAborted } from './guarded-fetch';
export type { GuardedFetchOptions, GuardedResponse, Response } from './guarded-fetch';
export { CertificateRefusedError, certificateRefusalOf, CertificateWatch, daysLeft } from './served-certificates';
export type { ServedCertificate } from './served-certificates';

export * from './types';
export type { HostLookup } from '../net-guard';
export { extractContent, isValidCssSelector } from './extract';
export { checkHttp, judgePage } from './http-check';
export { parseNumber, parsePrice } from './numbers';

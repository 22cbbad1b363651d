export * from './types';
export * from './assertions';
export type { HostLookup } from '../net-guard';
export { decodeBody } from './decode';
export { extractContent, isValidCssSelector } from './extract';
export { checkHttp, judgePage } from './http-check';
export { parseNumber, parsePrice } from './numbers';

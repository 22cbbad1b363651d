import type { Request } from 'express';
import { publicOrigin } from './public-origin';

const request = (protocol: string, host: string | undefined) =>
  ({ protocol, get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined) }) as unknown as Request;

describe('publicOrigin', () => {
  it('is PUBLIC_URL when it is set, whatever Host the request names', () => {
    expect(publicOrigin({ publicUrl: 'https://vigil.example.com' }, request('http', 'evil.example'))).toBe(
      'https://vigil.example.com',
    );
  });

  it('is the origin the request came to otherwise', () => {
    expect(publicOrigin({ publicUrl: null }, request('http', '127.0.0.1:3000'))).toBe('http://127.0.0.1:3000');
    expect(publicOrigin({ publicUrl: null }, request('https', undefined))).toBe('https://localhost');
  });
});

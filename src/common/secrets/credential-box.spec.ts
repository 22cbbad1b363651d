import { randomBytes } from 'node:crypto';
import { CredentialBox } from './credential-box';

describe('CredentialBox', () => {
  const box = new CredentialBox(randomBytes(32));

  it('opens what it sealed for the same row, and the sealed text reveals nothing of it', () => {
    const sealed = box.seal('glpat-secret-token', 'row-1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('glpat');
    expect(box.open(sealed, 'row-1')).toBe('glpat-secret-token');
    // A fresh IV each time: the same credential never seals to the same text.
    expect(box.seal('glpat-secret-token', 'row-1')).not.toBe(sealed);
  });

  it("refuses to open a credential as another row's, or under another key", () => {
    const sealed = box.seal('glpat-secret-token', 'row-1');
    expect(() => box.open(sealed, 'row-2')).toThrow();
    expect(() => new CredentialBox(randomBytes(32)).open(sealed, 'row-1')).toThrow();
  });
});

import { parseDeclaration } from './declaration-file';
import { documentPath, pathSegments } from './document-path';

describe('reading a declaration file', () => {
  it('YAML: the document, and the line of each path (the nearest existing one for what is missing)', () => {
    const read = parseDeclaration(
      ['version: 1', 'monitors:', '  shop:', '    name: Shop', '    regions:', '      - eu', '      - us', ''].join(
        '\n',
      ),
      'vigil.yaml',
    );
    if (!read.ok) throw new Error(read.message);
    expect(read.source.document).toEqual({ version: 1, monitors: { shop: { name: 'Shop', regions: ['eu', 'us'] } } });
    expect(read.source.lineOf(['monitors', 'shop', 'name'])).toBe(4);
    expect(read.source.lineOf(['monitors', 'shop', 'regions', 1])).toBe(7);
    expect(read.source.lineOf(['monitors', 'shop', 'url'])).toBe(4);
    expect(read.source.lineOf(['status_pages'])).toBe(1);
  });

  it('JSON, tabs included, with its lines', () => {
    const read = parseDeclaration('{\n\t"version": 1,\n\t"monitors": {\n\t\t"shop": {"name": "S"}\n\t}\n}\n', 'v.json');
    if (!read.ok) throw new Error(read.message);
    expect(read.source.document).toEqual({ version: 1, monitors: { shop: { name: 'S' } } });
    expect(read.source.lineOf(['monitors', 'shop', 'name'])).toBe(4);
  });

  it('syntax errors and duplicate keys name their line and column', () => {
    const read = parseDeclaration('version: 1\nmonitors:\n  shop: {name: a}\n  shop: {name: b}\n', 'vigil.yaml');
    expect(read).toEqual({ ok: false, kind: 'syntax', message: 'vigil.yaml:4:3: Map keys must be unique' });
    expect(parseDeclaration('a: [1, 2\n', 'x.yaml')).toMatchObject({ ok: false, kind: 'syntax' });
  });

  it('a billion laughs is refused rather than expanded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 10; level++) {
      const alias = String.fromCharCode(96 + level);
      lines.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${alias}`).join(', ')}]`,
      );
    }
    expect(parseDeclaration(lines.join('\n'), 'bomb.yaml')).toMatchObject({ ok: false, kind: 'syntax' });
  });

  it('paths as the service writes them, both ways', () => {
    expect(documentPath(['monitors', 'shop', 'rules', 'down', 'destinations', 0])).toBe(
      'monitors.shop.rules.down.destinations[0]',
    );
    expect(documentPath([])).toBe('document');
    expect(pathSegments('status_pages.public.components[2].monitors[0]')).toEqual([
      'status_pages',
      'public',
      'components',
      2,
      'monitors',
      0,
    ]);
    expect(pathSegments('monitors.Not A Key')).toEqual(['monitors', 'Not A Key']);
  });
});

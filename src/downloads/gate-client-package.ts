import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { NotFound } from '../common/errors/domain-errors';
import { projectRoot } from '../openapi/contract';

/** Where `npm run build` puts the packed gate client (libs/gate-client/build-package.mjs writes it). */
export const GATE_CLIENT_PACKAGE_PATH = join(projectRoot(), 'dist', 'downloads', 'vigil-gate.tgz');

export interface PackageFile {
  body: Buffer;
  /** A strong ETag from the content: every instance serving the same build answers the same one. */
  etag: string;
}

/** The gate client as an npm package tarball, read once per build and kept in memory (about 10 KiB). */
@Injectable()
export class GateClientPackage {
  private readonly path = GATE_CLIENT_PACKAGE_PATH;
  private cached: { version: string; file: PackageFile } | null = null;

  async current(): Promise<PackageFile> {
    let version: string;
    try {
      const stats = await stat(this.path);
      // A new build replaces the file (a rename), which changes these.
      version = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new NotFound('Gate client package', 'The gate client package is not built here: run `npm run build`.');
    }
    if (this.cached?.version !== version) {
      const body = await readFile(this.path);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      this.cached = { version, file: { body, etag } };
    }
    return this.cached.file;
  }
}

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Where screenshots, diff images, rendered text and reports live. A local directory by default; S3 can replace it. */
export abstract class ArtifactStore {
  /** Writes the whole file or nothing: readers never see a half-written artifact. */
  abstract put(key: string, data: Buffer | string): Promise<void>;
  /** The file, or null when there is none. */
  abstract get(key: string): Promise<Buffer | null>;
  /** Removes the file; removing one that is not there is no error. */
  abstract delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `folder/`; an empty or missing folder is no error. */
  abstract deleteFolder(folder: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export class LocalArtifactStore extends ArtifactStore {
  private readonly root: string;

  constructor(directory: string) {
    super();
    this.root = resolve(directory);
  }

  private pathOf(key: string): string {
    // Keys are made by the service, never taken from a request; still, nothing may leave the root.
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid artifact key ${JSON.stringify(key)}`);
    }
    return join(this.root, key);
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomUUID()}.partial`;
    await writeFile(partial, data);
    await rename(partial, path);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteFolder(folder: string): Promise<void> {
    await rm(this.pathOf(folder), { recursive: true, force: true });
  }
}

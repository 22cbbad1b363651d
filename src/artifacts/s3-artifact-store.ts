import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../config/app-config';
import { ArtifactStore } from './artifact-store';

/**
 * Artifacts in an S3-compatible bucket, so every API instance serves what any worker captured. An object appears whole
 * when its PUT completes (S3 never shows part of one), which keeps the store's write-once promise.
 */
export class S3ArtifactStore extends ArtifactStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    super();
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      // A stalled connection must fail (and be retried by the job), not hold a worker forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: data }));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async deleteFolder(folder: string): Promise<void> {
    const Bucket = this.settings.bucket;
    // List and delete up to 1,000 keys at a time (a listing page, and what one DeleteObjects takes), then list again
    // from the start: what was deleted is no longer listed, so no continuation is needed. The first listing API
    // (ListObjects), because some S3-compatible stores fail to make ListObjectsV2's continuation tokens.
    for (;;) {
      const listed = await this.client.send(new ListObjectsCommand({ Bucket, Prefix: `${folder}/` }));
      const Objects = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (Objects.length === 0) return;
      const deleted = await this.client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      if (deleted.Errors?.length) {
        throw new Error(`S3 kept ${deleted.Errors.length} object(s) under ${folder}/: ${deleted.Errors[0].Message}`);
      }
      if (!listed.IsTruncated) return;
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/**
 * Whether S3 said the object is not there: `NoSuchKey` from AWS and most stores, a bare 404 (`NotFound`) from some
 * S3-compatible ones. (AWS answers 403 instead when the credentials lack s3:ListBucket; grant it.)
 */
function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

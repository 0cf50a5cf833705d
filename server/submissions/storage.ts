import fs from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config';

/**
 * Where proof images live (docs/server.md §9): one interface over a folder or an
 * S3-compatible object store, so several machines can share the images. Keys are relative paths
 * of letters, digits, '/', '.', '_' and '-' (made by the server, never by a user).
 */
export interface ImageStore {
  /** Stores `bytes` under `key` with its content type; replaces what was there. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes the objects under `keys`; missing ones are no error. */
  delete(keys: readonly string[]): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9/._-]*$/i;

/** `key` checked: a relative path without '..' (a programming error otherwise). */
function checkedKey(key: string): string {
  if (!KEY.test(key) || key.split('/').includes('..')) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/**
 * Images as files under one folder (UPLOAD_DIR, default ./data/uploads); the folder is created on
 * first write. Proof screenshots are private to a clan, so folders are created 0700 and files 0600
 * (docs/server.md §14): readable by the server's user only.
 */
export class FolderStore implements ImageStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    // The mode applies when the file is created; a leftover temp file of a crash is made private too.
    await fs.writeFile(temp, bytes, { mode: 0o600 });
    await fs.chmod(temp, 0o600);
    await fs.rename(temp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((k) => fs.rm(this.file(k), { force: true })));
  }
}

/**
 * Images in an S3-compatible bucket through @aws-sdk/client-s3 (S3_BUCKET, S3_ENDPOINT,
 * S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY). With an endpoint (MinIO, a local stand-in)
 * requests are path-style.
 */
export class S3Store implements ImageStore {
  // The SDK is loaded with the first image, not at start-up: it costs about 0.1 s of CPU to load,
  // which a process that only serves the game (or the folder store) should not pay.
  private readonly ready: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }>;

  constructor(private readonly config: S3Config) {
    this.ready = import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        // Checksums only where S3 requires them: S3-compatible stores (MinIO, local stand-ins) do
        // not all understand the SDK's default flexible checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
        ...(config.accessKeyId && config.secretAccessKey
          ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
          : {}),
      }),
    }));
    // A failure to load shows on the first put/get/delete, which awaits `ready`; not unhandled here.
    this.ready.catch(() => undefined);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.ready;
    await client.send(new sdk.PutObjectCommand({ Bucket: this.config.bucket, Key: checkedKey(key), Body: bytes, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer | null> {
    const { sdk, client } = await this.ready;
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: checkedKey(key) }));
      if (!answer.Body) return null;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (err) {
      if (err instanceof sdk.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const { sdk, client } = await this.ready;
    await Promise.all(keys.map((k) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: checkedKey(k) }))));
  }
}

/** The store the configuration names: S3 when S3_BUCKET is set, else the UPLOAD_DIR folder. */
export function imageStoreOf(config: Config): ImageStore {
  return config.s3 ? new S3Store(config.s3) : new FolderStore(config.uploadDir);
}

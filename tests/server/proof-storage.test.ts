import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { FolderStore, S3Store, type ImageStore } from '../../server/submissions/storage';
import { startS3StandIn } from '../support/s3StandIn';
import sharp from 'sharp';
import { processProofImage } from '../../server/submissions/images';
import { PROOF_MESSAGES } from '../../contract/submission';

/**
 * The proof image store (docs/server.md §9): the same
 * behaviour from the folder store (UPLOAD_DIR) and the S3-compatible store (@aws-sdk/client-s3)
 * against a local S3 stand-in (s3rver, started here on a free loopback port with a temp folder).
 * The server's use of the S3 store is tested in proof.api.test.ts.
 */

describe('proof image store', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-uploads-'));
  let s3: { endpoint: string; stop: () => Promise<void> };
  const stores: Record<string, () => ImageStore> = {};

  beforeAll(async () => {
    s3 = await startS3StandIn('proofs');
    stores.folder = () => new FolderStore(folder);
    stores.s3 = () => new S3Store({ bucket: 'proofs', endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
  });

  afterAll(async () => {
    await s3?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  for (const kind of ['folder', 's3'] as const) {
    it(`${kind}: put, get, replace and delete; a missing key reads as null`, async () => {
      const store = stores[kind]();
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
      await store.put('proofs/7/abc.png', bytes, 'image/png');
      expect(await store.get('proofs/7/abc.png')).toEqual(bytes);
      await store.put('proofs/7/abc.png', Buffer.from('second'), 'image/png');
      expect((await store.get('proofs/7/abc.png'))?.toString()).toBe('second');
      await store.put('proofs/7/abc.thumb.webp', Buffer.from('thumb'), 'image/webp');
      expect(await store.get('proofs/7/none.png')).toBeNull();
      await store.delete(['proofs/7/abc.png', 'proofs/7/abc.thumb.webp', 'proofs/7/never-there.png']);
      expect(await store.get('proofs/7/abc.png')).toBeNull();
      expect(await store.get('proofs/7/abc.thumb.webp')).toBeNull();
    });

    it(`${kind}: keys that could leave the store are refused`, async () => {
      const store = stores[kind]();
      await expect(store.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/Invalid storage key/);
      await expect(store.get('proofs/../../etc/passwd')).rejects.toThrow(/Invalid storage key/);
    });
  }

  it('the folder store writes files under its folder; the S3 store objects in its bucket', async () => {
    await stores.folder().put('proofs/9/f.png', Buffer.from('f'), 'image/png');
    expect(fs.readFileSync(path.join(folder, 'proofs/9/f.png'), 'utf8')).toBe('f');
    await stores.s3().put('proofs/9/o.png', Buffer.from('o'), 'image/png');
    const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'proofs', Prefix: 'proofs/9/' }));
    client.destroy();
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['proofs/9/o.png']);
  });
});

describe('proof image processing (sharp)', () => {
  const base = () => sharp({ create: { width: 900, height: 600, channels: 4, background: '#33aa55ff' } });

  it('keeps PNG, JPEG, WebP and GIF in their own type, strips metadata, and makes a WebP thumbnail of at most 320 px', async () => {
    const inputs = {
      'image/png': await base().png().withMetadata().toBuffer(),
      'image/jpeg': await base().jpeg().withExif({ IFD0: { Artist: 'SECRET-ARTIST' } }).toBuffer(),
      'image/webp': await base().webp().withExif({ IFD0: { Artist: 'SECRET-ARTIST' } }).toBuffer(),
      'image/gif': await base().gif().toBuffer(),
    };
    for (const [type, bytes] of Object.entries(inputs)) {
      const out = await processProofImage(bytes);
      expect(out.imageType, type).toBe(type);
      const meta = await sharp(out.image).metadata();
      expect(`image/${meta.format}`).toBe(type);
      expect([meta.width, meta.height]).toEqual([900, 600]);
      expect(meta.exif, type).toBeUndefined();
      expect(out.image.includes('SECRET-ARTIST')).toBe(false);
      expect(out.thumbType).toBe('image/webp');
      const thumb = await sharp(out.thumb).metadata();
      expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 320, 213]);
    }
  });

  it('turns a photo upright by its EXIF orientation before the orientation is dropped', async () => {
    const sideways = await sharp({ create: { width: 60, height: 20, channels: 3, background: '#000' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const meta = await sharp((await processProofImage(sideways)).image).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([20, 60, undefined]);
  });

  it('refuses what is not one of the four types by its bytes (text, SVG, TIFF) and what does not decode', async () => {
    const refuse = async (bytes: Buffer, message: string) => expect(processProofImage(bytes)).rejects.toMatchObject({ status: 400, message });
    await refuse(Buffer.from('hello, this is text'), PROOF_MESSAGES.notImage);
    await refuse(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'), PROOF_MESSAGES.notImage);
    await refuse(await base().tiff().toBuffer(), PROOF_MESSAGES.notImage);
    const png = await base().png({ compressionLevel: 0 }).toBuffer();
    await expect(processProofImage(png.subarray(0, png.length / 3))).rejects.toMatchObject({ status: 400 });
  });
});

import { loadSharp } from '../images/sharp';
import pLimit from 'p-limit';
import { badRequest } from '../errors';
import { PROOF_IMAGE_TYPES, PROOF_MESSAGES } from '../../contract/submission';

/** A proof image after decoding: the re-encoded image and its thumbnail, each with its content type. */
export interface ProcessedImage {
  image: Buffer;
  imageType: string;
  thumb: Buffer;
  thumbType: string;
}

/** The accepted formats (sharp's names, recognised by the bytes) and the type each is stored as. */
const FORMATS = Object.fromEntries(PROOF_IMAGE_TYPES.map((type) => [type.slice('image/'.length), type])) as Record<Format, ProofImageType>;
type ProofImageType = (typeof PROOF_IMAGE_TYPES)[number];
type Format = 'png' | 'jpeg' | 'webp' | 'gif';

/** Largest decoded image in pixels (a decompression bomb is refused before it fills memory): 64 megapixels. */
const MAX_PIXELS = 64 * 1024 * 1024;
/** The thumbnail fits in this square, in pixels. */
const THUMB_SIZE = 320;
/** Images decoded at once in this process (each may take hundreds of MB and a core). */
const decoding = pLimit(2);

/**
 * Checks and re-encodes a proof image with sharp (docs/server.md §9):
 * - its type is read from its bytes (sharp's metadata), never its name: PNG, JPEG, WebP or GIF,
 *   else 400 PROOF_MESSAGES.notImage;
 * - it is decoded whole (an image that does not decode, e.g. truncated, is 400
 *   PROOF_MESSAGES.undecodable), turned upright by its EXIF orientation, and encoded again in
 *   its own format (a GIF keeps its first frame) with no metadata (sharp writes none unless asked:
 *   EXIF, XMP, ICC and comments are gone);
 * - a WebP thumbnail of at most THUMB_SIZE x THUMB_SIZE pixels.
 */
export function processProofImage(bytes: Buffer): Promise<ProcessedImage> {
  return decoding(async () => {
    const sharp = await loadSharp();
    let format: Format;
    try {
      const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
      if (!(meta.format in FORMATS)) throw badRequest(PROOF_MESSAGES.notImage);
      format = meta.format as Format;
    } catch (err) {
      if (err instanceof Error && err.message === PROOF_MESSAGES.notImage) throw err;
      throw badRequest(PROOF_MESSAGES.notImage);
    }
    try {
      const upright = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', pages: 1 }).rotate();
      const encoded = format === 'png' ? upright.png() : format === 'jpeg' ? upright.jpeg({ quality: 90 }) : format === 'webp' ? upright.webp({ quality: 90 }) : upright.gif();
      const image = await encoded.toBuffer();
      const thumb = await sharp(image, { limitInputPixels: MAX_PIXELS })
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
      return { image, imageType: FORMATS[format], thumb, thumbType: 'image/webp' };
    } catch {
      throw badRequest(PROOF_MESSAGES.undecodable);
    }
  });
}

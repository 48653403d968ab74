// Photos for the tests of issue 20, drawn at test time (nothing binary is committed): photo-like
// scenes rendered by sharp from an SVG built from a numeric seed (gradients, shapes, text: different
// seeds look different to a perceptual hash, and they compress as photos do, not as noise), a phone
// JPEG whose private tags are written by exiftool, and the hostile files an upload must refuse.
// A seed draws the same scene in every function (smallJpeg(5) and smallPng(5) are one picture);
// the bad files use seeds 60–69 and phoneJpeg 1000. Each is made once per process and kept in
// memory (nothing is written to disk: exiftool edits the phone JPEG from stdin to stdout).
// Every upload-shaped fixture is `{ name, mimeType, buffer }`, which is also Playwright's file
// payload: `page.setInputFiles('input[type=file]', [await pngBomb()])`.
import { execFile } from 'node:child_process';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { findExiftool, installCommand } from '../../scripts/exiftool.mjs';

/** A file as a browser would upload it; the shape of Playwright's `setInputFiles` payload. */
export type UploadFile = { name: string; mimeType: string; buffer: Buffer };

const mimeTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  heic: 'image/heic',
};

/** An upload of these bytes under this name, with the Content-Type a browser guesses from it. */
export function asUpload(buffer: Buffer, name: string): UploadFile {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  return { name, mimeType: mimeTypes[extension] ?? 'application/octet-stream', buffer };
}

/** The upload as a `File`, to append to a FormData for `app.request()` or `fetch`. */
export function asFile(upload: UploadFile): File {
  return new File([new Uint8Array(upload.buffer)], upload.name, { type: upload.mimeType });
}

const made = new Map<string, Promise<Buffer>>();
/** Makes a fixture once per process and hands out copies, so a test can't spoil another's. */
async function once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  let pending = made.get(key);
  if (!pending) {
    pending = make();
    made.set(key, pending);
    pending.catch(() => made.delete(key));
  }
  return Buffer.from(await pending);
}

/** mulberry32: a small seeded generator, so a seed always draws the same scene. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The big red square of phoneJpeg: a fifth of the short side, drawn last in the top-left corner.
const RED_MARK = '#ff0000';

/**
 * An SVG scene: a sky gradient, a sun, hills, a few shapes and a caption. Hues stay between green
 * and violet (90°–300°), so nothing but the red mark is red and `redCornerOf` can't be fooled.
 */
function sceneSvg(seed: number, width: number, height: number, redMark = false): string {
  const random = randomFrom(seed);
  const between = (low: number, high: number) => low + random() * (high - low);
  const hue = () => Math.round(between(90, 300));
  const colour = (lightness = between(25, 75)) =>
    `hsl(${hue()},${Math.round(between(35, 85))}%,${Math.round(lightness)}%)`;
  const short = Math.min(width, height);
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="sky" x1="${random().toFixed(2)}" y1="0" x2="${random().toFixed(2)}" y2="1">` +
      `<stop offset="0" stop-color="${colour(80)}"/><stop offset="1" stop-color="${colour(35)}"/></linearGradient>` +
      `<radialGradient id="sun"><stop offset="0" stop-color="${colour(90)}"/>` +
      `<stop offset="1" stop-color="${colour(60)}" stop-opacity="0"/></radialGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
    `<circle cx="${between(0.2, 0.8) * width}" cy="${between(0.15, 0.45) * height}" r="${between(0.1, 0.3) * short}" fill="url(#sun)"/>`,
  );
  for (let hill = 0; hill < 3; hill++) {
    const base = height * between(0.55, 0.9);
    const points = [`0,${height}`];
    for (let step = 0; step <= 8; step++)
      points.push(`${(width * step) / 8},${base - between(0, 0.3) * height}`);
    points.push(`${width},${height}`);
    parts.push(`<polygon points="${points.join(' ')}" fill="${colour()}" opacity="0.85"/>`);
  }
  const shapes = 4 + Math.floor(random() * 5);
  for (let index = 0; index < shapes; index++) {
    const x = between(0.1, 0.9) * width;
    const y = between(0.1, 0.9) * height;
    const size = between(0.05, 0.2) * short;
    const fill = colour();
    parts.push(
      random() < 0.5
        ? `<ellipse cx="${x}" cy="${y}" rx="${size}" ry="${size * between(0.5, 1.5)}" fill="${fill}" opacity="0.8"/>`
        : `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size * between(0.6, 1.6)}" fill="${fill}" transform="rotate(${Math.round(between(-40, 40))} ${x} ${y})"/>`,
    );
  }
  parts.push(
    `<text x="${width / 2}" y="${height * 0.55}" font-family="DejaVu Sans, sans-serif" font-size="${short / 10}" text-anchor="middle" fill="${colour(95)}">Photo ${seed}</text>`,
  );
  if (redMark) parts.push(`<rect width="${short / 5}" height="${short / 5}" fill="${RED_MARK}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

function scene(seed: number, width: number, height: number, redMark = false) {
  return sharp(Buffer.from(sceneSvg(seed, width, height, redMark))).flatten();
}

/** A valid JPEG photo (800×600 unless told), different for every seed. */
export function smallJpeg(seed: number, width = 800, height = 600): Promise<Buffer> {
  return once(`jpeg-${seed}-${width}x${height}`, () =>
    scene(seed, width, height).jpeg({ quality: 85 }).toBuffer(),
  );
}

/** A valid PNG photo (800×600 unless told), different for every seed. */
export function smallPng(seed: number, width = 800, height = 600): Promise<Buffer> {
  return once(`png-${seed}-${width}x${height}`, () => scene(seed, width, height).png().toBuffer());
}

/** A valid WebP photo (800×600 unless told), different for every seed. */
export function smallWebp(seed: number, width = 800, height = 600): Promise<Buffer> {
  return once(`webp-${seed}-${width}x${height}`, () =>
    scene(seed, width, height).webp({ quality: 85 }).toBuffer(),
  );
}

/**
 * A scene with a phone sensor's grain (a soft-light overlay of seeded noise), which is what makes
 * a phone's JPEG weigh megabytes: the processing benchmarks need that weight, not a flat drawing.
 */
async function grainyScene(seed: number, width: number, height: number, redMark = false) {
  const random = randomFrom(seed ^ 0x5eed);
  const grain = Buffer.alloc(width * height);
  for (let index = 0; index < grain.length; index++) grain[index] = 96 + random() * 64;
  const drawn = await scene(seed, width, height, redMark).png({ compressionLevel: 0 }).toBuffer();
  return sharp(drawn).composite([
    { input: grain, raw: { width, height, channels: 1 }, blend: 'soft-light' },
  ]);
}

/** A 4000×3000 phone-like JPEG (quality 90, a few megabytes): the benchmarks' photo. */
export function twelveMegapixelJpeg(seed: number): Promise<Buffer> {
  return once(`12mp-${seed}`, async () =>
    (await grainyScene(seed, 4000, 3000)).jpeg({ quality: 90 }).toBuffer(),
  );
}

export type PhoneJpegOptions = {
  /** The drawing's seed (default 1000, a scene no small fixture draws unless asked to). */
  seed?: number;
  /** The EXIF Orientation written (default 6: "rotate 90° clockwise" to show it upright). */
  orientation?: 1 | 3 | 6 | 8;
};

/** What phoneJpeg writes into the file, for tests that look for any of it in published files. */
export const PHONE_TAGS = {
  latitude: 37.774929,
  longitude: -122.419416,
  make: 'Pixelphone',
  model: 'Pixelphone 9 Pro',
  serialNumber: 'SN-4C0FFEE-77',
  artist: 'Jamie Private-Person',
  comment: 'Taken at 221B Home Street',
} as const;

/**
 * A 3000×2000 phone JPEG (stored landscape, a big red square in the stored top-left corner) whose
 * EXIF says Orientation 6 and carries GPS position, Make, Model, serial number and Artist, with an
 * XMP creator, an IPTC by-line, a JPEG comment and a Display P3 colour profile, as phones write.
 * Shown upright it is 2000×3000 with the red square top-right.
 */
export function phoneJpeg(options: PhoneJpegOptions = {}): Promise<Buffer> {
  const { seed = 1000, orientation = 6 } = options;
  return once(`phone-${seed}-${orientation}`, async () => {
    const drawing = await grainyScene(seed, 3000, 2000, true);
    const drawn = await drawing.withIccProfile('p3').jpeg({ quality: 88 }).toBuffer();
    const tags = PHONE_TAGS;
    return runExiftool(
      [
        '-o',
        '-',
        `-IFD0:Orientation#=${orientation}`,
        `-IFD0:Make=${tags.make}`,
        `-IFD0:Model=${tags.model}`,
        `-IFD0:Artist=${tags.artist}`,
        `-ExifIFD:SerialNumber=${tags.serialNumber}`,
        `-ExifIFD:DateTimeOriginal=2024:06:01 18:30:00`,
        `-GPS:GPSLatitude=${Math.abs(tags.latitude)}`,
        `-GPS:GPSLatitudeRef=${tags.latitude < 0 ? 'S' : 'N'}`,
        `-GPS:GPSLongitude=${Math.abs(tags.longitude)}`,
        `-GPS:GPSLongitudeRef=${tags.longitude < 0 ? 'W' : 'E'}`,
        `-XMP-dc:Creator=${tags.artist}`,
        `-IPTC:By-line=${tags.artist}`,
        `-Comment=${tags.comment}`,
        '-',
      ],
      drawn,
    );
  });
}

/**
 * Which corner of the decoded pixels holds the red mark, as stored (no EXIF rotation is applied
 * here: rotate first to ask about the upright photo), or undefined when none or several are red.
 */
export async function redCornerOf(
  buffer: Buffer,
): Promise<'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | undefined> {
  const size = 100;
  const patch = 4; // of 100: the mark covers a fifth of the short side, so at least 13 of 100
  const pixels = await sharp(buffer)
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  const isRed = (left: number, top: number) => {
    let [red, green, blue] = [0, 0, 0];
    for (let y = top; y < top + patch; y++)
      for (let x = left; x < left + patch; x++) {
        const at = (y * size + x) * 3;
        red += pixels[at] ?? 0;
        green += pixels[at + 1] ?? 0;
        blue += pixels[at + 2] ?? 0;
      }
    const n = patch * patch;
    return red / n > 180 && green / n < 80 && blue / n < 80;
  };
  const far = size - patch;
  const red = (
    [
      ['top-left', 0, 0],
      ['top-right', far, 0],
      ['bottom-left', 0, far],
      ['bottom-right', far, far],
    ] as const
  ).filter(([, left, top]) => isRed(left, top));
  return red.length === 1 ? red[0]?.[0] : undefined;
}

// Bad files: each is refused by the upload, with the name a browser would send it under.

/**
 * A 1.2 MB PNG that decodes to 20,000 × 20,000 RGB pixels (1.2 GB): IHDR, then an IDAT of
 * all-zero rows (filter byte 0) deflated as a stream, so the 1.2 GB never exists in memory.
 */
export async function pngBomb(): Promise<UploadFile> {
  const buffer = await once('png-bomb', async () => {
    const side = 20_000;
    const rowBytes = 1 + side * 3;
    const rowsAtOnce = 200;
    // 1.2 GB of black rows, compressed once a 200-row band (a band flushed whole is a deflate
    // block of its own, byte-aligned, that refers to nothing before it) and the band repeated:
    // deflating all 1.2 GB took 3 s on a quiet machine and over 20 s on a busy one.
    const band = zlib.deflateRawSync(Buffer.alloc(rowBytes * rowsAtOnce), {
      level: 9,
      memLevel: 9,
      finishFlush: zlib.constants.Z_FULL_FLUSH,
    });
    const total = rowBytes * side;
    // Adler-32 of zeros: a stays 1, b adds 1 a byte.
    const adler = Buffer.alloc(4);
    adler.writeUInt32BE((((total % 65_521) << 16) | 1) >>> 0);
    const compressed = [
      Buffer.from([0x78, 0xda]), // zlib: deflate, 32 KB window, best compression
      ...Array.from({ length: side / rowsAtOnce }, () => band),
      Buffer.from([0x03, 0x00]), // the last block: empty, fixed codes
      adler,
    ];
    const header = Buffer.alloc(13);
    header.writeUInt32BE(side, 0);
    header.writeUInt32BE(side, 4);
    header.set([8, 2, 0, 0, 0], 8); // 8 bits a sample, RGB, deflate, no filter method, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', Buffer.concat(compressed)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
  });
  return asUpload(buffer, 'huge.png');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid JPEG cut at 60 % of its bytes. */
export async function truncatedJpeg(): Promise<UploadFile> {
  const whole = await smallJpeg(60);
  return asUpload(whole.subarray(0, Math.floor(whole.length * 0.6)), 'truncated.jpg');
}

/** An SVG that looks like a photo, as `photo.svg` (or under another name, e.g. `photo.jpg`). */
export async function svgImage(name = 'photo.svg'): Promise<UploadFile> {
  return asUpload(Buffer.from(sceneSvg(67, 800, 600)), name);
}

/** A PHP web shell named `shell.jpg`. */
export async function phpAsJpg(): Promise<UploadFile> {
  return asUpload(Buffer.from(`<?php system($_GET['c']); ?>\n`), 'shell.jpg');
}

/** The markup appended after a valid JPEG's end: what a test looks for in anything served. */
export const APPENDED_HTML = '<html><body><script>alert(1)</script></body></html>';

/** A valid JPEG with an HTML page appended after its end (it still decodes). */
export async function jpegWithHtml(): Promise<UploadFile> {
  const jpeg = await smallJpeg(61);
  return asUpload(Buffer.concat([jpeg, Buffer.from(APPENDED_HTML)]), 'photo-with-html.jpg');
}

/** Zero bytes, named `empty.jpg`. */
export async function emptyFile(): Promise<UploadFile> {
  return asUpload(Buffer.alloc(0), 'empty.jpg');
}

/** A 2-frame animated WebP (400×300). */
export async function animatedWebp(): Promise<UploadFile> {
  const buffer = await once('animated-webp', async () => {
    const frames = await Promise.all([smallPng(62, 400, 300), smallPng(63, 400, 300)]);
    return sharp(frames, { join: { animated: true } })
      .webp({ quality: 80, loop: 0, delay: [500, 500] })
      .toBuffer();
  });
  return asUpload(buffer, 'animated.webp');
}

/** The upload limit, 15 MB; tooLargeJpeg is over it however a megabyte is counted. */
const FIFTEEN_MIB = 15 * 1024 * 1024;

/**
 * A valid JPEG just over 15 MiB: a small photo padded, right after its start marker, with JPEG
 * comment segments of seeded random bytes (a decoder skips them; nothing compresses them away).
 */
export async function tooLargeJpeg(): Promise<UploadFile> {
  const buffer = await once('too-large', async () => {
    const jpeg = await smallJpeg(64);
    const random = randomFrom(64);
    const segments: Buffer[] = [];
    let total = jpeg.length;
    while (total <= FIFTEEN_MIB + 64 * 1024) {
      const segment = Buffer.alloc(4 + 65_533);
      segment.set([0xff, 0xfe], 0);
      segment.writeUInt16BE(65_535, 2); // the length counts itself, not the marker
      for (let at = 4; at < segment.length; at += 4)
        segment.writeUInt32LE(Math.floor(random() * 4294967296), Math.min(at, segment.length - 4));
      segments.push(segment);
      total += segment.length;
    }
    return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
  });
  return asUpload(buffer, 'too-large.jpg');
}

/** A valid 8000×6000 JPEG (48 megapixels, over the 40 MP limit), small in bytes: flat colours. */
export async function tooManyPixelsJpeg(): Promise<UploadFile> {
  const buffer = await once('too-many-pixels', async () => {
    const small = await smallPng(65, 800, 600);
    return sharp(small).resize(8000, 6000, { kernel: 'nearest' }).jpeg({ quality: 70 }).toBuffer();
  });
  return asUpload(buffer, 'too-many-pixels.jpg');
}

/** Every bad file, by what is wrong with it: for a test that refuses each in turn. */
export const BAD_FILES = {
  'a PNG that decodes to 20,000 × 20,000 pixels': pngBomb,
  'a truncated JPEG': truncatedJpeg,
  'an SVG': () => svgImage('photo.svg'),
  'an SVG named .jpg': () => svgImage('photo.jpg'),
  'a PHP file named .jpg': phpAsJpg,
  'a zero-byte file': emptyFile,
  'an animated WebP': animatedWebp,
  'a JPEG over 15 MB': tooLargeJpeg,
  'a JPEG over 40 megapixels': tooManyPixelsJpeg,
} satisfies Record<string, () => Promise<UploadFile>>;

/**
 * The same photo as a moderator would meet it again: cropped by 3 % on each side, resized to 80 %
 * of its width and re-encoded as JPEG at quality 70 (for the perceptual-hash tests).
 */
export async function nearCopy(buffer: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(buffer).metadata();
  const left = Math.round(width * 0.03);
  const top = Math.round(height * 0.03);
  const cropped = await sharp(buffer)
    .extract({ left, top, width: width - 2 * left, height: height - 2 * top })
    .toBuffer();
  return sharp(cropped)
    .resize(Math.round(width * 0.8))
    .jpeg({ quality: 70 })
    .toBuffer();
}

function exiftoolPath(): string {
  const found = findExiftool();
  if (!found.path)
    throw new Error(
      `${found.problem} The photo tests need it (npm test installs it): ${installCommand}`,
    );
  return found.path;
}

/** exiftool's stdout; `-` among the arguments reads `input` from stdin. */
function runExiftool(args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      exiftoolPath(),
      args,
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // exiftool exits 1 when it read a file but found nothing to report; the JSON still says.
        if (error && stdout.length === 0)
          reject(new Error(`exiftool ${args.join(' ')}: ${stderr.toString() || error.message}`));
        else resolve(stdout);
      },
    );
    if (input) child.stdin?.end(input);
  });
}

/** Every tag exiftool reads in a file or buffer: `{ 'GPS:GPSLatitude': 37.77, … }` (-j -a -G1 -n). */
export async function exifTagsOf(bufferOrPath: Buffer | string): Promise<Record<string, unknown>> {
  const fromBuffer = typeof bufferOrPath !== 'string';
  const output = await runExiftool(
    ['-j', '-a', '-G1', '-n', fromBuffer ? '-' : bufferOrPath],
    fromBuffer ? bufferOrPath : undefined,
  );
  const [tags] = JSON.parse(output.toString('utf8')) as Record<string, unknown>[];
  if (!tags) throw new Error('exiftool reported no file');
  return tags;
}

/**
 * The tags a published photo must not carry (names without their group; `GPS*` is every GPS tag).
 * Orientation is allowed only as 1 (the pixels are upright already).
 */
export const PRIVATE_TAGS = [
  'GPS*',
  'Make',
  'Model',
  'SerialNumber',
  'BodySerialNumber',
  'InternalSerialNumber',
  'LensSerialNumber',
  'OwnerName',
  'CameraOwnerName',
  'Artist',
  'Creator',
  'By-line',
  'Copyright',
  'Rights',
  'Comment',
  'UserComment',
  'ImageDescription',
  'XPAuthor',
  'XPComment',
  'DateTimeOriginal',
  'CreateDate',
  'Orientation',
] as const;

/** The `Group:Name` keys of `tags` (from exifTagsOf) that a published photo must not carry. */
export function privateTagsIn(tags: Record<string, unknown>): string[] {
  return Object.keys(tags).filter((key) => {
    const name = key.split(':').pop() ?? key;
    if (name === 'Orientation') return tags[key] !== 1;
    return PRIVATE_TAGS.some((tag) =>
      tag.endsWith('*') ? name.startsWith(tag.slice(0, -1)) : name === tag,
    );
  });
}

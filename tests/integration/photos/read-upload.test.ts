// Reading a multipart post with photos as it streams in (server/photos/read-upload.ts): the text
// fields, each file in a temporary file of its own, a file over the limit marked and not kept,
// files beyond the count marked, an empty file input ignored, and everything gone after dispose().
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readUpload, type Upload } from '../../../server/photos/read-upload.ts';
import { Refusal } from '../../../core/refusal.ts';
import { adsApiPath } from '../../../core/paths.ts';

function multipart(form: FormData): Request {
  return new Request(`http://localhost${adsApiPath()}`, { method: 'POST', body: form });
}

const file = (bytes: number, name: string) =>
  new File([new Uint8Array(bytes).fill(7)], name, { type: 'image/jpeg' });

/** Six files of at most 5,000 bytes each. */
const LIMITS = { maxFiles: 6, maxFileBytes: 5000 };

describe('readUpload', () => {
  it('answers the fields (a repeated name as a list) and each file in its own temporary file', async () => {
    const form = new FormData();
    form.append('title', 'Walks');
    form.append('photo', '12');
    form.append('photo', '13');
    form.append('photos', file(1000, 'a.jpg'));
    form.append('photos', file(2000, 'b.jpg'));
    const upload = (await readUpload(multipart(form), LIMITS)) as Upload;
    expect(upload).not.toBeInstanceOf(Refusal);
    expect(upload.fields).toEqual({ title: 'Walks', photo: ['12', '13'] });
    expect(upload.files.map((each) => [each.field, each.name, each.size])).toEqual([
      ['photos', 'a.jpg', 1000],
      ['photos', 'b.jpg', 2000],
    ]);
    const paths = upload.files.map((each) => each.path!);
    expect(readFileSync(paths[1]!)).toHaveLength(2000);
    await upload.dispose();
    expect(paths.some((path) => existsSync(path))).toBe(false);
  });

  it('marks a file over the size limit and does not keep it', async () => {
    const form = new FormData();
    form.append('photos', file(6000, 'big.jpg'));
    form.append('photos', file(10, 'small.jpg'));
    const upload = (await readUpload(multipart(form), LIMITS)) as Upload;
    expect(upload.files.map((each) => [each.name, each.tooLarge, each.path !== undefined])).toEqual(
      [
        ['big.jpg', true, false],
        ['small.jpg', false, true],
      ],
    );
    await upload.dispose();
  });

  it('marks files beyond the count, and leaves out an empty file input', async () => {
    const form = new FormData();
    for (let n = 1; n <= 4; n += 1) form.append('photos', file(10, `${n}.jpg`));
    form.append('photos', new File([], '', { type: 'application/octet-stream' }));
    const upload = (await readUpload(multipart(form), { ...LIMITS, maxFiles: 2 })) as Upload;
    expect(upload.files.filter((each) => !each.tooMany)).toHaveLength(2);
    expect(upload.files.some((each) => each.tooMany)).toBe(true);
    await upload.dispose();
  });

  it('refuses a body that is not multipart as it says', async () => {
    const request = new Request(`http://localhost${adsApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'this is not a multipart body',
    });
    await expect(readUpload(request, LIMITS)).rejects.toBeInstanceOf(Refusal);
  });
});

// @vitest-environment jsdom
/**
 * The report's photos while they are made small (useAttachments.ts and
 * PhotoPicker.tsx), with shrinkPhoto held by the test: a picked photo shows
 * as being prepared; the form's `ready()` waits for every photo and gives
 * the prepared files in order; a photo turned away meanwhile leaves the
 * list with its reason shown, and `ready()` answers null so the submit stops.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { PreparedPhoto } from '../../src/data/shrinkPhoto.ts';
import { PHOTO_UNREADABLE } from '../../src/domain/photoSize.ts';
import { PhotoPicker } from '../../src/features/reports/PhotoPicker.tsx';
import { useAttachments, type Attachments } from '../../src/features/reports/useAttachments.ts';

const pending = new Map<string, (result: PreparedPhoto) => void>();
vi.mock('../../src/data/shrinkPhoto.ts', () => ({
  shrinkPhoto: (file: File) => new Promise<PreparedPhoto>((resolve) => pending.set(file.name, resolve)),
}));

const jpeg = (name: string) => new File([new Uint8Array(10)], name, { type: 'image/jpeg' });
const small = (name: string) => new File([new Uint8Array(3)], name.replace(/\.\w+$/, '.jpg'), { type: 'image/jpeg' });

let photos: Attachments;
function Harness() {
  photos = useAttachments();
  return <PhotoPicker photos={photos} />;
}

beforeEach(() => {
  pending.clear();
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${++n}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(cleanup);

async function pick(...files: File[]) {
  render(<Harness />);
  await userEvent.upload(document.querySelector('input[type="file"]') as HTMLInputElement, files);
}

describe('photos being prepared', () => {
  test('show as preparing; ready() waits for them and gives the prepared files in order', async () => {
    await pick(jpeg('a.jpg'), jpeg('b.heic'));
    screen.getByText('Preparing 2 photos…');
    screen.getByText('(2/5)');
    screen.getByRole('status', { name: 'Preparing photo 1' });
    let files: File[] | null | undefined;
    void photos.ready().then((answer) => (files = answer));
    await act(async () => pending.get('b.heic')!({ ok: true, file: small('b.heic'), shrunk: true }));
    screen.getByText('Preparing photo…');
    expect(files).toBeUndefined();
    await act(async () => pending.get('a.jpg')!({ ok: true, file: small('a.jpg'), shrunk: true }));
    await waitFor(() => expect(files?.map((f) => f.name)).toEqual(['a.jpg', 'b.jpg']));
    expect(screen.queryByText(/^Preparing/)).toBeNull();
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['Photo 1', 'Photo 2']);
  });

  test('one turned away leaves the list with its reason, and ready() answers null', async () => {
    await pick(jpeg('a.jpg'), jpeg('huge.heic'));
    let files: File[] | null | undefined;
    void photos.ready().then((answer) => (files = answer));
    await act(async () => pending.get('a.jpg')!({ ok: true, file: small('a.jpg'), shrunk: true }));
    await act(async () => pending.get('huge.heic')!({ ok: false, message: PHOTO_UNREADABLE }));
    await waitFor(() => expect(files).toBeNull());
    expect(screen.getByRole('alert').textContent).toBe(PHOTO_UNREADABLE);
    screen.getByText('(1/5)');
    // Asked again, with nothing pending: the photos there now.
    await expect(photos.ready()).resolves.toEqual([expect.objectContaining({ name: 'a.jpg' })]);
  });

  test('a photo removed while it is prepared is not added when it is ready', async () => {
    await pick(jpeg('a.jpg'));
    await userEvent.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    await act(async () => pending.get('a.jpg')!({ ok: true, file: small('a.jpg'), shrunk: true }));
    screen.getByText('(0/5)');
    await expect(photos.ready()).resolves.toEqual([]);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });
});

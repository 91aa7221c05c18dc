/** A home's note is previewed at 30 characters. */
export const NOTE_PREVIEW_LENGTH = 30;

export interface NotePreview {
  /** What the card shows. */
  text: string;
  /** True when `text` is cut short (the card adds an ellipsis). */
  truncated: boolean;
  /** The toggle's words, or null when the note fits and needs none. */
  toggle: 'show more' | 'show less' | null;
}

/**
 * A home's note as the card shows it (docs/product.md#home-cards-and-the-desk-table): notes up to 30 characters
 * as they are; longer ones cut at 30 with 'show more', or whole with
 * 'show less' once expanded. Counted in code points, so an emoji or an
 * accented letter is never split in half.
 */
export function notePreview(note: string, expanded: boolean): NotePreview {
  const chars = Array.from(note);
  if (chars.length <= NOTE_PREVIEW_LENGTH) return { text: note, truncated: false, toggle: null };
  if (expanded) return { text: note, truncated: false, toggle: 'show less' };
  return { text: chars.slice(0, NOTE_PREVIEW_LENGTH).join(''), truncated: true, toggle: 'show more' };
}

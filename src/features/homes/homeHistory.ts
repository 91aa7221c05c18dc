/**
 * The words of a home's History sheet, as pure functions of the history
 * rows the server wrote (pocketbase/pb_hooks/lib/home_history.js): rows
 * grouped per save (one person's rows written within two seconds), newest
 * first, and each change in the home form's words: "Note: 'A-text' →
 * 'B-text'", "Security code: 1234 → 5678", "Added resident Yolanda
 * Vasquez", "Removed phone (561) 555-0142", "Photo changed".
 */
import type { HomeChangeCollection, HomeChangeRecord } from '../../api/records.ts';
import { DIRECTORY_LABELS, fieldLabel } from '../../domain/directoryFields.ts';
import { NO_VALUE, valueWords as plainValueWords } from '../../ui/directoryValues.ts';
import { formatPhone } from '../../ui/format.ts';

/** Free text: quoted, so where a value starts and ends is plain (and an empty one is not mistaken for a word). */
const QUOTED_FIELDS = new Set(['note', 'house_check_note']);
const COLLECTION_ORDER: Record<HomeChangeCollection, number> = { houses: 0, residents: 1, phones: 2 };
const FIELD_ORDER = Object.keys(DIRECTORY_LABELS);
const RECORD_WORDS: Record<HomeChangeCollection, string> = { houses: 'home', residents: 'resident', phones: 'phone' };

export const HISTORY_TITLE = 'History';
export const HISTORY_EMPTY = 'No changes recorded yet.';
export const HISTORY_PENDING =
  'Changes made on this device appear here once the server has them (they are waiting to be sent).';

/** One value of a field as people read it; free text quoted, so where it starts and ends is plain. */
export function valueWords(field: string, value: unknown): string {
  const words = plainValueWords(field, value);
  return QUOTED_FIELDS.has(field) && words !== NO_VALUE ? `'${words}'` : words;
}

/** One change, in words: `text` whole, or a field's `subject` with its values `from` → `to` (each may be long and wrap). */
export type ChangeLine =
  { id: string; kind: 'text'; text: string } | { id: string; kind: 'field'; subject: string; from: string; to: string };

export interface ChangeGroup {
  key: string;
  /** The group's newest row's `created` (server time, PocketBase's text). */
  at: string;
  byName: string;
  lines: ChangeLine[];
}

const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What a created or removed record was called: from its kept fields, else the label of then. */
function recordName(row: HomeChangeRecord): string {
  const values = asObject(row.action === 'create' ? row.to_value : row.from_value);
  if (row.collection_name === 'residents') {
    const name = `${text(values.first_name)} ${text(values.last_name)}`.trim();
    return name || row.record_label;
  }
  if (row.collection_name === 'phones') return formatPhone(text(values.phone_number) || row.record_label);
  const street = [text(values.address), text(values.apt)].filter(Boolean).join(', ');
  return street || row.record_label;
}

/** Which resident or phone a field change is of ("Resident Yoli Vasquez"); nothing for the home itself. */
function subjectOf(row: HomeChangeRecord): string {
  const label = fieldLabel(row.field);
  if (row.collection_name === 'residents') return `Resident ${row.record_label} – ${label.toLowerCase()}`;
  if (row.collection_name === 'phones') return `Phone ${formatPhone(row.record_label)} – ${label.toLowerCase()}`;
  return label;
}

function photoWords(row: HomeChangeRecord): string {
  if (!row.from_value) return 'Photo added';
  if (!row.to_value) return 'Photo removed';
  return 'Photo changed';
}

export function changeLine(row: HomeChangeRecord): ChangeLine {
  const what = RECORD_WORDS[row.collection_name] ?? 'record';
  if (row.action === 'create') return { id: row.id, kind: 'text', text: `Added ${what} ${recordName(row)}` };
  if (row.action === 'delete') return { id: row.id, kind: 'text', text: `Removed ${what} ${recordName(row)}` };
  if (row.field === 'image') return { id: row.id, kind: 'text', text: photoWords(row) };
  return {
    id: row.id,
    kind: 'field',
    subject: subjectOf(row),
    from: valueWords(row.field, row.from_value),
    to: valueWords(row.field, row.to_value),
  };
}

/** A change as one line of text (for tests and screen readers): "Note: 'A' → 'B'". */
export function lineText(line: ChangeLine): string {
  return line.kind === 'text' ? line.text : `${line.subject}: ${line.from} → ${line.to}`;
}

/** Who wrote a row: one person's rows can be one save, two people's never are. */
const authorKey = (row: HomeChangeRecord) => `${row.changed_by}|${row.changed_by_name}`;

/**
 * How far apart two rows of one save can be. A save is one request (a batch
 * of the home with its people) and its rows are written within milliseconds,
 * but a busy server can put a second's boundary between them, so rows are
 * not grouped by their second; nobody fills a form twice in two seconds.
 */
export const SAVE_GAP_MS = 2000;
const createdMs = (row: HomeChangeRecord) => Date.parse(row.created.replace(' ', 'T'));

/** The order of a save's changes: the home, then residents, then phones, each in the form's order. */
function withinSave(a: HomeChangeRecord, b: HomeChangeRecord): number {
  return (
    (COLLECTION_ORDER[a.collection_name] ?? 9) - (COLLECTION_ORDER[b.collection_name] ?? 9) ||
    a.record_id.localeCompare(b.record_id) ||
    // A create before its record's field changes, a delete after them.
    actionRank(a) - actionRank(b) ||
    FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field)
  );
}
const actionRank = (row: HomeChangeRecord) => (row.action === 'create' ? 0 : row.action === 'update' ? 1 : 2);

/** The rows of one home as saves, newest first; a save's changes in the form's order. */
export function historyGroups(rows: readonly HomeChangeRecord[]): ChangeGroup[] {
  const newestFirst = [...rows].sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
  const groups: Array<{ key: string; rows: HomeChangeRecord[]; oldestMs: number }> = [];
  /** Each author's save being gathered: a row joins it when it is at most SAVE_GAP_MS older than its oldest row. */
  const open = new Map<string, (typeof groups)[number]>();
  for (const row of newestFirst) {
    const author = authorKey(row);
    const at = createdMs(row);
    let group = open.get(author);
    if (!group || !(group.oldestMs - at <= SAVE_GAP_MS)) {
      group = { key: `${author}|${row.created}`, rows: [], oldestMs: at };
      open.set(author, group);
      groups.push(group);
    }
    group.rows.push(row);
    group.oldestMs = at;
  }
  return groups.map(({ key, rows: saved }) => ({
    key,
    at: saved[0]!.created,
    byName: saved[0]!.changed_by_name || 'Someone',
    lines: [...saved].sort(withinSave).map(changeLine),
  }));
}

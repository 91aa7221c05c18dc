/**
 * A table as the mirror's readers see it while part of it is still in a
 * first load's pages (loadPages.ts): every read sees those records as if
 * they were rows: a get, a bulkGet, a query on
 * any index with its range, order and limit, a count. The table's row comes
 * first; the screens, the search index and the sync machinery read the
 * mirror as they always did. Writes go to the table, and a record written
 * or deleted leaves the pages when the write commits (a deletion is also
 * taken out of the stored page, so a reload does not bring it back).
 *
 * Cursors (Dexie's filter(), modify(), anyOf()) are not served over pages:
 * the app does not open them on these tables, and one that did would be
 * told so rather than read half the records.
 */
import { cmp, type DBCoreMutateRequest, type DBCoreTable } from 'dexie';
import type { LoadPagesOverlay, PagedRow } from './loadPages.ts';

interface Entry {
  key: unknown;
  id: string;
  row: unknown;
  /** From a page: handed out as a copy (the caller may change what it reads). */
  paged?: true;
}

type Direction = 'next' | 'nextunique' | 'prev' | 'prevunique' | undefined;

/** The ids a write touches (the tables here all keep their key in `id`); null for a range. */
function writtenIds(req: DBCoreMutateRequest): string[] | null {
  if (req.type === 'deleteRange') return null;
  if (req.type === 'delete') return req.keys as string[];
  if (req.keys) return req.keys as string[];
  return (req.values as Array<{ id: string }>).map((value) => value.id);
}

const copy = (row: PagedRow): PagedRow => ({ ...row });

/** The table `name` (Dexie's own, one level down) with the overlay's records in every read. */
export function pagedTable(
  overlay: LoadPagesOverlay,
  table: DBCoreTable,
  name: string,
  forgetInPages: (table: string, pages: Map<string, string[]>) => void,
): DBCoreTable {
  const direct = (trans: object) => overlay.isRaw(trans) || !overlay.holds(name);
  const wrapped: DBCoreTable = {
    ...table,
    // A record is in the pages or in its table, never both (loadPages.ts): one the pages hold is not looked for in the table.
    get: async (req) => {
      const paged = direct(req.trans) ? undefined : overlay.get(req.trans, name, req.key as string);
      return paged ? copy(paged) : table.get(req);
    },
    getMany: async (req) => {
      if (direct(req.trans)) return table.getMany(req);
      const paged = req.keys.map((key) => overlay.get(req.trans, name, key as string));
      const missing = req.keys.filter((_, i) => paged[i] === undefined);
      const rows = missing.length > 0 ? await table.getMany({ ...req, keys: missing }) : [];
      let next = 0;
      return paged.map((row) => (row ? copy(row) : rows[next++]));
    },
    count: async (req) => {
      const count = await table.count(req);
      if (direct(req.trans)) return count;
      const keyPath = req.query.index.isPrimaryKey ? null : (req.query.index.keyPath as string);
      return count + overlay.range(req.trans, name, keyPath, req.query.range).length;
    },
    query: async (req) => {
      if (direct(req.trans)) return table.query(req);
      const keyPath = req.query.index.isPrimaryKey ? null : (req.query.index.keyPath as string);
      // Merging in index order needs each row's key: a keys-only read of an index asks for the rows.
      const withRows = req.values || keyPath !== null;
      const { result } = await table.query(withRows === Boolean(req.values) ? req : { ...req, values: true });
      const fromTable: Entry[] = result.map((item: unknown) => {
        if (!withRows) return { key: item, id: item as string, row: item };
        const row = item as Record<string, unknown> & { id: string };
        return { key: keyPath === null ? row.id : row[keyPath], id: row.id, row };
      });
      const inTable = new Set(fromTable.map((entry) => entry.id));
      const fromPages: Entry[] = overlay
        .range(req.trans, name, keyPath, req.query.range)
        .filter((entry) => !inTable.has(entry.row.id))
        .map((entry) => ({ key: entry.key, id: entry.row.id, row: entry.row, paged: true as const }));
      const merged = mergeInOrder(fromTable, fromPages, req.direction as Direction, req.limit);
      return {
        result: merged.map((entry) => (!req.values ? entry.id : entry.paged ? copy(entry.row as PagedRow) : entry.row)),
      };
    },
    openCursor: async (req) => {
      if (!direct(req.trans))
        throw new Error(
          `A cursor over "${name}" while part of it is still in a first load's pages (pagedTable.ts): read it with a query instead.`,
        );
      return table.openCursor(req);
    },
    mutate: async (req) => {
      if (direct(req.trans)) return table.mutate(req);
      const ids = writtenIds(req);
      if (ids) overlay.noteWritten(req.trans, name, ids);
      const response = await table.mutate(req);
      const deleting = req.type === 'delete' || req.type === 'deleteRange';
      (req.trans as IDBTransaction).addEventListener('complete', () => {
        const pages = req.type === 'deleteRange' ? overlay.dropRange(name, req.range) : overlay.drop(name, ids ?? []);
        if (deleting && pages.size > 0) forgetInPages(name, pages);
      });
      return response;
    },
  };
  return wrapped;
}

/**
 * The two ascending-or-descending lists as one, in IndexedDB's order ((key,
 * id), reversed for 'prev'); a unique direction keeps the first of each key.
 * `fromTable` is already in the query's order; `fromPages` is ascending.
 */
function mergeInOrder(fromTable: Entry[], fromPages: Entry[], direction: Direction, limit?: number): Entry[] {
  const reverse = direction === 'prev' || direction === 'prevunique';
  const unique = direction === 'nextunique' || direction === 'prevunique';
  const pages = reverse ? [...fromPages].reverse() : fromPages;
  const sign = reverse ? -1 : 1;
  const order = (a: Entry, b: Entry) => sign * (cmp(a.key, b.key) || cmp(a.id, b.id));
  const max = limit ?? Infinity;
  const out: Entry[] = [];
  let i = 0;
  let j = 0;
  while (out.length < max && (i < fromTable.length || j < pages.length)) {
    const next =
      j >= pages.length || (i < fromTable.length && order(fromTable[i]!, pages[j]!) <= 0)
        ? fromTable[i++]!
        : pages[j++]!;
    if (unique && out.length > 0 && cmp(out[out.length - 1]!.key, next.key) === 0) continue;
    out.push(next);
  }
  return out;
}

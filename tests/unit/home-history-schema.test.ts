/**
 * The history's collection (migration 1765100000_home_changes.js) and the
 * server's list of tracked fields (pb_hooks/lib/home_history.js) agree with
 * the schema: every tracked field exists where it is tracked, the collection
 * names are the select's values, every field a write's conflict check
 * compares has a history to name who changed it, and only the server writes
 * rows while a community's staff read its own.
 */
import { expect, test } from 'vitest';
import { DIRECTORY_FIELDS } from '../../src/domain/directoryFields.ts';
import { loadHookLib } from '../support/hook-lib.ts';
import { field, loadSchema } from '../support/migration-schema.ts';

const schema = loadSchema();
const { TRACKED_FIELDS } = loadHookLib<{ TRACKED_FIELDS: Record<string, string[]> }>('home_history.js');

test('every tracked field is a field of its collection', () => {
  for (const [collection, fields] of Object.entries(TRACKED_FIELDS)) {
    for (const name of fields) expect(() => field(schema, collection, name), `${collection}.${name}`).not.toThrow();
  }
});

test('the collections of the history are the tracked ones', () => {
  expect(field(schema, 'home_changes', 'collection_name').values).toEqual(Object.keys(TRACKED_FIELDS));
  expect(field(schema, 'home_changes', 'action').values).toEqual(['create', 'update', 'delete']);
});

test('every field the conflict check compares has a history (the 409 names who changed it)', () => {
  for (const [collection, fields] of Object.entries(DIRECTORY_FIELDS)) {
    for (const name of fields) expect(TRACKED_FIELDS[collection], `${collection}.${name}`).toContain(name);
  }
});

test("the history's fields are the directory's, and the home's photo", () => {
  expect(TRACKED_FIELDS).toEqual({
    houses: [...DIRECTORY_FIELDS.houses, 'image'],
    residents: DIRECTORY_FIELDS.residents,
    phones: DIRECTORY_FIELDS.phones,
  });
});

test('activity is left out: the last house check and the pending calls', () => {
  expect(TRACKED_FIELDS.houses).not.toContain('house_check_last_date');
  expect(TRACKED_FIELDS.houses).not.toContain('pending_call_concerns_ids');
});

test('read by the staff of the community, written by the server only, indexed for its three reads', () => {
  const changes = schema.get('home_changes')!;
  expect(changes.listRule).toMatch(/community = @request\.auth\.community/);
  expect(changes.viewRule).toBe(changes.listRule);
  expect([changes.createRule, changes.updateRule, changes.deleteRule]).toEqual([null, null, null]);
  // Text, not a relation: the history outlives a deleted home.
  expect(field(schema, 'home_changes', 'house').type).toBe('text');
  const indexes = changes.indexes.join('\n');
  expect(indexes).toContain('(collection_name, record_id, field, created)');
  expect(indexes).toContain('(house, created)');
  expect(indexes).toContain('(community, updated)');
});

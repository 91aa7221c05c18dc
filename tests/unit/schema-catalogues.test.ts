import { expect, test } from 'vitest';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from '../../src/domain/reportTypes.ts';
import { STATE_VALUES } from '../../src/domain/states.ts';
import { field, loadSchema } from '../support/migration-schema.ts';

// The server's select values and the client's catalogues must never drift.
const schema = loadSchema();

test('report types on the server are the client catalogue', () => {
  expect(field(schema, 'reports', 'type').values).toEqual([...REPORT_TYPE_VALUES]);
});

test('weather values on the server are the client catalogue', () => {
  expect(field(schema, 'reports', 'weather').values).toEqual([...WEATHER_VALUES]);
});

test('states on the server are the client catalogue, Alaska spelt Ak', () => {
  expect(field(schema, 'houses', 'state').values).toEqual([...STATE_VALUES]);
});

test('every collection has created and updated autodates (the sync pulls by updated)', () => {
  for (const name of ['communities', 'houses', 'residents', 'phones', 'concerns', 'reports', 'calls']) {
    expect(field(schema, name, 'created').type, name).toBe('autodate');
    expect(field(schema, name, 'updated').type, name).toBe('autodate');
  }
});

test('concern and note limits follow docs/product.md#decisions', () => {
  expect([
    field(schema, 'concerns', 'name').max,
    field(schema, 'concerns', 'hint').max,
    field(schema, 'concerns', 'say').max,
  ]).toEqual([100, 200, 350]);
  expect(field(schema, 'houses', 'note').max).toBe(4500);
});

/**
 * The changes route's request (src/domain/changesRequest.ts): what the
 * device writes, the server reads back as it was; what the device never
 * writes is refused with the message the route answers.
 */
import { describe, expect, test } from 'vitest';
import { CHANGES_PER_ANSWER, changesQuery, readChangesQuery } from '../../src/domain/changesRequest.ts';
import { ANSWERED_AT_ONCE } from '../../src/domain/pullFilter.ts';

describe('the changes request', () => {
  test('what changesQuery writes, readChangesQuery reads back as it was', () => {
    const cursors = Object.fromEntries(
      ANSWERED_AT_ONCE.map((collection, i) => [
        collection,
        i % 2 ? { updated: '2026-11-28 07:00:00.123Z', id: `abc${i}` } : { updated: '', id: '' },
      ]),
    );
    expect(readChangesQuery(changesQuery({ cursors }))).toEqual({ request: { cursors } });
    expect(readChangesQuery(changesQuery({ cursors, limit: 7 }))).toEqual({ request: { cursors, limit: 7 } });
    // Every collection's cursor fits well within the route's limit on the parameter's length.
    expect(changesQuery({ cursors }).cursors!.length).toBeLessThan(4_096);
  });

  test('a limit past the answer, an unknown collection or parameter: the problem, named', () => {
    const cursors = JSON.stringify({ houses: { updated: '', id: '' } });
    expect(readChangesQuery({ cursors, limit: String(CHANGES_PER_ANSWER + 1) })).toEqual({
      problem: `limit must be a whole number from 1 to ${CHANGES_PER_ANSWER}.`,
    });
    expect(readChangesQuery({ cursors: JSON.stringify({ phones: { updated: '', id: '' } }) })).toEqual({
      problem: 'cursors names "phones", a collection this route does not serve.',
    });
    expect(readChangesQuery({ cursors, fields: 'id' })).toEqual({
      problem: 'Unknown parameter "fields": the route takes cursors and limit.',
    });
  });
});

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * A home's place in the Homes list (street, number, apt in natural order)
 * as text the database can sort by, so a new phone can ask for the top of
 * the list first. The server sets it on every save (pb_hooks/houses.pb.js,
 * with the app's own rule, src/domain/homeSortKey.ts); the homes saved
 * before this field existed get it here, by SQL, without a new `updated`
 * (devices keep their own order and have nothing to pull again).
 *
 * Written out, not imported: migrations are history. The key below is the
 * rule as it was when the field came (tests/integration/house-sort-key.test.ts
 * checks that it agrees with the app's).
 */
migrate(
  (app) => {
    const houses = app.findCollectionByNameOrId('houses');
    houses.fields.add(new TextField({ name: 'sort_key', max: 1000 }));
    // The top of a community's list is a walk of this index, not a sort of every home.
    houses.indexes.push('CREATE INDEX idx_houses_community_sort_key ON houses (community, sort_key, id)');
    app.save(houses);

    const part = (text) =>
      text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        // eslint-disable-next-line no-control-regex -- a control character would sort below the parts' separator
        .replace(/[\u0000-\u001f\u007f]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/\d+/g, (digits) => {
          const number = digits.replace(/^0+(?=\d)/, '');
          return String(Math.min(number.length, 99)).padStart(2, '0') + number;
        });
    const sortKey = (address, apt) => {
      const match = /^\s*(\d[^\s,]*),?\s+(.+)$/.exec(address);
      const street = match ? match[2].trim() : address.trim();
      const number = match ? match[1] : '';
      return [street, number, apt].map(part).join('\u0001');
    };
    for (;;) {
      const rows = arrayOf(new DynamicModel({ id: '', address: '', apt: '' }));
      app.db().newQuery("SELECT id, address, apt FROM houses WHERE sort_key = '' LIMIT 500").all(rows);
      if (rows.length === 0) break;
      for (const row of rows)
        app
          .db()
          .newQuery('UPDATE houses SET sort_key = {:key} WHERE id = {:id}')
          .bind({ key: sortKey(row.address, row.apt), id: row.id })
          .execute();
    }
  },
  (app) => {
    const houses = app.findCollectionByNameOrId('houses');
    houses.indexes = houses.indexes.filter((index) => index.indexOf('idx_houses_community_sort_key') === -1);
    houses.fields.removeByName('sort_key');
    app.save(houses);
  },
);

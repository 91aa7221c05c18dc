/**
 * Keeps `houses.sort_key` (pb_migrations/1765400000_house_sort_key.js): the
 * home's place in the Homes list, from the app's own rule
 * (src/domain/homeSortKey.ts, compiled into generated/home_sort_key.js).
 */
const { homeSortKey } = require(`${__hooks}/lib/generated/home_sort_key.js`);

/** Sets the key of a home about to be saved (a create or an update, whoever makes it). */
function keepSortKey(record) {
  record.set('sort_key', homeSortKey({ address: record.getString('address'), apt: record.getString('apt') }));
}

module.exports = { keepSortKey };

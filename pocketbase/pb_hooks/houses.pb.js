/// <reference path="../../.data/pb_data/types.d.ts" />
// A house created without a state is in Florida (docs/product.md#the-home-form: "Florida
// FL)"). A select field has no default value, so it is filled in here, on the
// create request before the record is validated.

onRecordCreateRequest((e) => {
  if (e.record.getString('state') === '') e.record.set('state', 'FL');
  return e.next();
}, 'houses');

// A home with reports cannot be deleted: the reports are the
// community's record of what happened there and keep their house. The
// reports' link does not cascade, so PocketBase alone would delete the home
// and blank the reports' house; this refuses first, with a message the
// client's outbox shows on the parked entry. The community rule has run
// already (a foreign home is a 404 before this), and residents and phones
// go with a home that is deleted (their links cascade, see the schema).
onRecordDeleteRequest((e) => {
  const count = e.app.countRecords('reports', $dbx.hashExp({ house: e.record.id }));
  if (count > 0) throw new BadRequestError(`This home has ${count} report(s) and cannot be deleted.`);
  return e.next();
}, 'houses');

// Every save of a home keeps its place in the Homes list as sortable text
// (pb_migrations/1765400000_house_sort_key.js): whatever a request sent in
// `sort_key`, the key is the server's, from the same rule the app sorts with.
onRecordCreate((e) => {
  require(`${__hooks}/lib/house_sort_key.js`).keepSortKey(e.record);
  return e.next();
}, 'houses');

onRecordUpdate((e) => {
  require(`${__hooks}/lib/house_sort_key.js`).keepSortKey(e.record);
  return e.next();
}, 'houses');

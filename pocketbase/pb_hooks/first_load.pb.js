/// <reference path="../../.data/pb_data/types.d.ts" />
// A first load's pages, built by SQLite and sent compressed
// (lib/first_load_pack.js): what a new phone reads instead of the records
// API's pages. GET /api/scms/first-load/{collection}?from=&after=&to=&limit=&time=
// (a page), or ?head=1&time= (how many, and the newest).

routerAdd(
  'GET',
  '/api/scms/first-load/{collection}',
  (e) => require(`${__hooks}/lib/first_load_pack.js`).serve(e),
  $apis.gzip(),
);

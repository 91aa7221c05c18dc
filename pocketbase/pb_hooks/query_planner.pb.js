/// <reference path="../../.data/pb_data/types.d.ts" />
// Keeps SQLite's table statistics current, so the planner's choice of index
// follows the data. Without statistics, the incremental pull of residents
// and phones ("updated >= cursor", scoped by their house's community) is
// planned through houses.community: every resident of the community is read
// to return a handful, and its cost grows with the community (20,000 homes:
// 3x the time of 5,000 for the same 100 changes). With statistics the
// planner walks the `updated` index from the cursor instead.
//
// A full ANALYZE (not PocketBase's nightly sampled `PRAGMA optimize`, which
// left the plan unchanged when measured) takes about 50 ms at 20,000 homes
// and 80,000 reports, so it runs at every start and then every hour: a
// community imported in one go is planned well within the hour.

onBootstrap((e) => {
  e.next();
  // The database is open once the bootstrap chain has run.
  require(`${__hooks}/lib/table_statistics.js`).updateTableStatistics(e.app);
});

cronAdd('scms_table_statistics', '17 * * * *', () =>
  require(`${__hooks}/lib/table_statistics.js`).updateTableStatistics($app),
);

/// <reference path="../../../.data/pb_data/types.d.ts" />
// Full ANALYZE of the database, then a log entry with the row count each
// table's statistics now hold (the first figure of an index's stat), so an
// operator (and the tests) can see them. Why: pb_hooks/query_planner.pb.js.

function updateTableStatistics(app) {
  try {
    const started = Date.now();
    app.db().newQuery('ANALYZE').execute();
    const rows = arrayOf(new DynamicModel({ tbl: '', stat: '' }));
    app.db().newQuery("SELECT tbl, stat FROM sqlite_stat1 WHERE tbl NOT LIKE '\\_%' ESCAPE '\\'").all(rows);
    const tables = {};
    for (const row of rows) tables[row.tbl] = parseInt(String(row.stat).split(' ')[0], 10);
    app.logger().info('Table statistics updated', 'ms', Date.now() - started, 'tables', tables);
  } catch (error) {
    // Statistics are an optimisation: a busy or read-only database keeps the previous ones.
    app.logger().warn('ANALYZE failed', 'error', String(error));
  }
}

module.exports = { updateTableStatistics };

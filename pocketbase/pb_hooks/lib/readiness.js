/// Readiness: what /api/health and the demo route wait for. A server is
/// ready when every migration in the migrations folder is applied and, in
/// demo mode, the demo seed has finished (it writes scms_meta.demo_seed as
/// its last step). Until then a sign-in with the demo account would fail,
/// so nothing may say "ready" or hand out the demo sign-in.

/** The migrations folder: SCMS_MIGRATIONS_DIR, or pb_migrations beside pb_hooks. */
function migrationsDir() {
  const configured = String($os.getenv('SCMS_MIGRATIONS_DIR') || '').trim();
  return configured !== '' ? configured : `${__hooks}/../pb_migrations`;
}

/** Migration files of the folder that the database has not recorded as applied. */
function pendingMigrations(app) {
  const files = $os
    .readDir(migrationsDir())
    .filter((entry) => !entry.isDir() && /\.js$/.test(entry.name()))
    .map((entry) => entry.name());
  const rows = arrayOf(new DynamicModel({ file: '' }));
  app.db().newQuery('SELECT file FROM _migrations').all(rows);
  const applied = {};
  rows.forEach((row) => {
    applied[row.file] = true;
  });
  return files.filter((file) => !applied[file]);
}

function demoMode() {
  return $os.getenv('SCMS_DEMO') === '1';
}

function demoSeeded(app) {
  try {
    app.findFirstRecordByData('scms_meta', 'key', 'demo_seed');
    return true;
  } catch {
    return false;
  }
}

/** Why the server is not ready yet, or '' when it is. */
function notReadyReason(app) {
  const pending = pendingMigrations(app);
  if (pending.length > 0) return `Migrations not applied yet: ${pending.join(', ')}.`;
  if (demoMode() && !demoSeeded(app)) return 'The demo data is being prepared.';
  return '';
}

module.exports = { notReadyReason: notReadyReason, demoSeeded: demoSeeded };

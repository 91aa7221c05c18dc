/// A community's call settings: retries, text fallback and quiet
/// hours, from its `call_settings` record or, without one, the defaults of
/// src/domain/quietHours.ts (compiled into lib/generated/quiet_hours.js).

/** The quiet-hours rules of src/domain/quietHours.ts (call_jobs.js uses them too). */
function quietHours() {
  return require(`${__hooks}/lib/generated/quiet_hours.js`);
}

/**
 * → {retries, retryMinutes, textFallback, quietStart, quietEnd, timeZone}
 *
 * A community whose director has not saved settings has the defaults,
 * quiet hours 21:00–08:00 included: the call sheet asks 'It is 22:14 for
 * the resident. Call anyway?' and sends the caller's yes.
 */
function readCallSettings(app, communityId) {
  const defaults = quietHours().DEFAULT_CALL_SETTINGS;
  let record;
  try {
    record = app.findFirstRecordByFilter('call_settings', 'community = {:community}', { community: communityId });
  } catch {
    return Object.assign({}, defaults);
  }
  return {
    retries: record.getInt('retries'),
    retryMinutes: record.getInt('retry_minutes') || defaults.retryMinutes,
    textFallback: record.getBool('text_fallback'),
    quietStart: record.getString('quiet_start') || defaults.quietStart,
    quietEnd: record.getString('quiet_end') || defaults.quietEnd,
    timeZone: record.getString('time_zone') || defaults.timeZone,
  };
}

module.exports = { readCallSettings: readCallSettings, quietHours: quietHours };

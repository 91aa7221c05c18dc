/// A community's call settings (issue 14): retries, text fallback and quiet
/// hours, from its `call_settings` record or, without one, the defaults of
/// src/domain/quietHours.ts (compiled into lib/generated/quiet_hours.js).

function quiet() {
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
  const defaults = quiet().DEFAULT_CALL_SETTINGS;
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

/** Record request hook: the time zone must be one the quiet-hours rule knows,
 *  or quiet hours would silently be New York's. */
function checkTimeZone(e) {
  const zone = e.record.getString('time_zone');
  if (!quiet().isKnownTimeZone(zone)) {
    throw new BadRequestError('Failed to save the call settings.', {
      time_zone: new ValidationError(
        'validation_invalid_time_zone',
        'Time zone must be one of ' + quiet().TIME_ZONES.join(', ') + '.',
      ),
    });
  }
  return e.next();
}

module.exports = { readCallSettings: readCallSettings, checkTimeZone: checkTimeZone };

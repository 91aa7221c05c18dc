/// A record's JSON position field ({latitude, longitude, accuracy}) as the
/// hooks read it. Loaded with require() inside each handler.

/** The position as {latitude, longitude, …}, or null (goja hands JSON over as raw bytes). */
function positionOf(value) {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : toString(value);
  if (text === '' || text === 'null') return null;
  const parsed = JSON.parse(text);
  return parsed && typeof parsed.latitude === 'number' && typeof parsed.longitude === 'number' ? parsed : null;
}

module.exports = { positionOf: positionOf };

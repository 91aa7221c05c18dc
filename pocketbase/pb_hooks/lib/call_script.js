/// The TwiML that makes the provider say the script. The script itself is
/// composed by src/domain/callScript.ts, compiled into lib/generated/ (one
/// rule for the app's preview and the real call).

/** Escapes text for an XML element body or attribute. */
function xmlEscape(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function sayTwiml(script) {
  return '<Response><Say voice="alice">' + xmlEscape(script) + '</Say></Response>';
}

module.exports = { xmlEscape: xmlEscape, sayTwiml: sayTwiml };

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

function say(text) {
  return '<Say voice="alice">' + xmlEscape(text) + '</Say>';
}

/** The script alone: what a machine records after its beep. */
function sayTwiml(script) {
  return '<Response>' + say(script) + '</Response>';
}

/**
 * What a person hears: the script, then the request to press 1.
 * One key ends the <Gather>; Twilio posts it to `gatherUrl`. Without a key
 * press the call ends after the prompt.
 */
function callTwiml(script, gatherUrl) {
  const words = require(`${__hooks}/lib/generated/call_script.js`);
  return (
    '<Response>' +
    say(script) +
    '<Gather action="' +
    xmlEscape(gatherUrl) +
    '" method="POST" numDigits="1" timeout="8">' +
    say(words.ACKNOWLEDGE_PROMPT) +
    '</Gather></Response>'
  );
}

/** The answer to a key press: thanks for a 1, else nothing more. */
function gatherReplyTwiml(acknowledged) {
  return acknowledged
    ? '<Response>' + say(require(`${__hooks}/lib/generated/call_script.js`).ACKNOWLEDGED_REPLY) + '</Response>'
    : '<Response/>';
}

module.exports = { xmlEscape: xmlEscape, sayTwiml: sayTwiml, callTwiml: callTwiml, gatherReplyTwiml: gatherReplyTwiml };

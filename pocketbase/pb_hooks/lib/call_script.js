/// The words spoken to a resident, and the TwiML that makes the provider say
/// them. Pure functions, no PocketBase APIs.

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A concern's `say` as plain speech: the rich-text editor stores HTML
 * (`<p>…</p>`, `<br>`, `&amp;`…), none of which should be read aloud.
 * Tags become spaces (so "<p>a</p><p>b</p>" does not run "ab" together),
 * common entities are decoded, whitespace is collapsed.
 */
function plainText(html) {
  return String(html)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, function (_, name) {
      return ENTITIES[name];
    })
    .replace(/&#(\d{1,6});/g, function (_, code) {
      const n = Number(code);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Spec §2 (Concerns): fixed intro with the community's name, each concern's
 *  text, fixed outro, separated by spaces. */
function composeScript(communityName, says) {
  const parts = ['Hello. This is ' + plainText(communityName) + ' security team.'];
  says.forEach(function (say) {
    const text = plainText(say);
    if (text !== '') parts.push(text);
  });
  parts.push('Thank you. Good bye.');
  return parts.join(' ');
}

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

module.exports = { plainText: plainText, composeScript: composeScript, xmlEscape: xmlEscape, sayTwiml: sayTwiml };

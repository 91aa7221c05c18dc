/**
 * The words the automated call says (docs/product.md#calls-to-residents): a fixed intro with
 * the community's name, each concern's text, and a fixed outro. Written once
 * here; the server's call route runs the same code (scripts/pocketbase/
 * hook-libs.ts compiles this file into pb_hooks/lib/generated/), so the
 * script a director previews is the script the resident hears.
 * Must stay free of imports and browser or Node APIs (it runs in goja).
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export const CALL_OUTRO = 'Thank you. Good bye.';

/** Asked after the script: pressing 1 marks the call Acknowledged.
 *  The script itself comes first, unchanged. */
export const ACKNOWLEDGE_PROMPT = 'To confirm that you got this message, press 1.';
/** Said when the resident pressed 1. */
export const ACKNOWLEDGED_REPLY = 'Thank you. Your confirmation was received. Good bye.';

/** A call names at most three concerns (docs/product.md#calls-to-residents); a fourth is refused
 *  with these words. Here so that the call route (through lib/generated/)
 *  and the Select Concerns sheet (features/homes/concernSelection.ts)
 *  say the same. */
export const LIMIT_EXCEEDED_MESSAGE = 'Limit Exceeded: Only three concerns can be selected at a time.';

export function callIntro(communityName: string): string {
  return `Hello. This is ${plainText(communityName)} security team.`;
}

/**
 * A concern's `say` as plain speech: paragraph tags and other markup are
 * stripped (docs/product.md#calls-to-residents), common entities decoded, whitespace collapsed. Tags
 * become spaces so "<p>a</p><p>b</p>" does not run "ab" together.
 */
export function plainText(html: string): string {
  return String(html)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? ' ')
    .replace(/&#(\d{1,6});/g, (_, code: string) => {
      const n = Number(code);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The whole script, parts separated by spaces. */
export function composeScript(communityName: string, says: readonly string[]): string {
  const parts = [callIntro(communityName)];
  for (const say of says) {
    const text = plainText(say);
    if (text !== '') parts.push(text);
  }
  parts.push(CALL_OUTRO);
  return parts.join(' ');
}

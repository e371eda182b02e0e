/**
 * Names that users typed (plants, devices, companies, users, alarm rule messages) as mails may show them
 * (docs/security.md, "Mail and schedules"). An attacker who names a plant
 * "Click http://evil.example/\r\nBcc: x" and subscribes an outside address to its report must not get a
 * link or a line of their own into the console's mail: the mail would carry their text with the console's
 * good name as sender.
 */

/** Control and format characters that break or reorder lines: C0/C1 controls, line/paragraph separators, bidi and zero-width marks. */
const LINE_BREAKERS = /[\p{Cc}\u2028\u2029\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]+/gu;
/** Dots that mail clients may read as the dot of a domain (ideographic and half-width full stops). */
const OTHER_DOTS = /[\u3002\uFF61]/g;
/** `scheme://…` and `scheme:…` links of the schemes a mail client opens. */
const SCHEME_LINKS = /\b(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|tel|sms|file):)\S*/giu;
const WWW_LINKS = /\bwww\.\S*/giu;
/**
 * Bare domains such as `evil.example` or `evil.example/path`: labels joined by dots, ending in a label of
 * two or more letters (which leaves numbers such as `2.5` and abbreviations such as `A.Ş.` alone).
 */
const BARE_DOMAINS =
  /(?:[\p{L}\p{N}](?:[\p{L}\p{N}_-]*[\p{L}\p{N}])?\.)+\p{L}(?:[\p{L}\p{N}-]*\p{L})?(?::\d+)?(?:[/?#]\S*)?/gu;
/** What is left of a bare domain with a label shorter than two letters after its last dot is not a link. */
const MIN_TLD_LETTERS = 2;

function withoutBareDomains(text: string): string {
  return text.replace(BARE_DOMAINS, (match) => {
    const host = match.replace(/[:/?#].*$/u, '');
    const tld = host.slice(host.lastIndexOf('.') + 1);
    return tld.length >= MIN_TLD_LETTERS ? ' ' : match;
  });
}

/**
 * The text on one line, without anything URL-like (scheme://, www., bare domains) and without line breaks
 * or control characters; runs of white space become one space. For the text and the HTML part alike (the
 * HTML part escapes it after).
 */
export function mailSafeText(value: string): string {
  const normalised = value.normalize('NFKC').replace(LINE_BREAKERS, ' ').replace(OTHER_DOTS, '.');
  const unlinked = withoutBareDomains(normalised.replace(SCHEME_LINKS, ' ').replace(WWW_LINKS, ' '));
  return unlinked.replace(/\s+/gu, ' ').trim();
}

/** Every value of a translation's variables through mailSafeText. */
export function mailSafeVars(vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).map(([key, value]) => [key, mailSafeText(value)]));
}

/**
 * The BCP 47 tag `Intl` gets for an interface language, apart from lib/intl.ts so that code of the
 * logged-out entry (the date pickers' format) can use it without dayjs's locale data.
 */

/**
 * Locales whose conventions another tag shares, for runtimes without their data. Chromium's bundled ICU
 * has no Macedonian: `Intl` silently formats `mk-MK` as en-US (11/22/26, 11:45 PM; 7,448,426.3). CLDR's
 * Macedonian writes d.M.yy, HH:mm and 7.448.426,3, which is what German formats numerically.
 */
const NUMERIC_TWIN: Record<string, string> = { mk: 'de-DE' };

const supported = new Map<string, boolean>();
/** Whether the runtime's Intl has data of its own for `tag`. */
export function runtimeHas(tag: string): boolean {
  let known = supported.get(tag);
  if (known === undefined) {
    known = Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0;
    supported.set(tag, known);
  }
  return known;
}

/** The BCP 47 tag to give `Intl` for an interface language (`mk_MK`): its own, or its numeric twin. */
export function intlTag(language: string): string {
  const tag = language.replace('_', '-');
  const base = tag.slice(0, 2);
  return runtimeHas(tag) || !NUMERIC_TWIN[base] ? tag : NUMERIC_TWIN[base];
}

import { LOCALES, type Fault } from '@solar/shared';
import { resources, translate, type Messages } from '@solar/i18n';
import { searchFold } from '../../db/database';

/** The catalogue branch of the alarm messages a fault title can carry as its code. */
const MESSAGE_BRANCH = 'alarms.msg';
const PLACEHOLDER = /\{\{\s*\w+\s*\}\}/;

/**
 * As the web writes an alarm message (useAlarmText in the alarms feature): no space before ")" and no runs
 * of spaces, which empty parameters leave behind.
 */
export const tidyMessage = (text: string): string =>
  text
    .replace(/\s+\)/g, ')')
    .replace(/\s{2,}/g, ' ')
    .trim();

/** A fault's title as the web renders it from its code: "device or plant: message". */
export function renderedTitle(
  locale: (typeof LOCALES)[number],
  fault: Pick<Fault, 'title_code' | 'title_params' | 'device_name' | 'plant_name'>,
): string | null {
  if (fault.title_code === null) return null;
  const params = Object.fromEntries(Object.entries(fault.title_params ?? {}).map(([k, v]) => [k, v ?? '']));
  const message = tidyMessage(translate(locale, fault.title_code, params));
  const subject = fault.device_name ?? fault.plant_name;
  return subject ? `${subject}: ${message}` : message;
}

/** The fault's title rendered from its code in each of the four languages (none without a code). */
export function renderedTitles(
  fault: Pick<Fault, 'title_code' | 'title_params' | 'device_name' | 'plant_name'>,
): string[] {
  return LOCALES.flatMap((locale) => renderedTitle(locale, fault) ?? []);
}

/**
 * True when a submitted text is the fault's title as some reader saw it: the stored text, or the title
 * rendered from its code in any language. Such a save leaves the title alone (and the code with it);
 * anything else is text a person typed.
 */
export function isShownTitle(
  fault: Pick<Fault, 'title' | 'title_code' | 'title_params' | 'device_name' | 'plant_name'>,
  submitted: string,
): boolean {
  if (submitted === fault.title) return true;
  const text = tidyMessage(submitted);
  return renderedTitles(fault).some((title) => tidyMessage(title) === text);
}

/** The text parts of every message's template, per code, in every language, folded for search. */
const MESSAGE_PARTS: { code: string; parts: string[] }[] = (() => {
  const branchOf = (messages: Messages): Messages => {
    let node: Messages | string | undefined = messages;
    for (const part of MESSAGE_BRANCH.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    return typeof node === 'object' ? node : {};
  };
  return Object.keys(branchOf(resources.tr_TR)).map((name) => ({
    code: `${MESSAGE_BRANCH}.${name}`,
    parts: LOCALES.flatMap((locale) => {
      const template = branchOf(resources[locale])[name];
      return typeof template === 'string'
        ? template
            .split(PLACEHOLDER)
            .map((part) => searchFold(part))
            .filter((part) => part.trim() !== '')
        : [];
    }),
  }));
})();

/**
 * The message codes whose text, in any of the four languages, contains the search: a coded fault is found
 * by the words every reader may see in its title, not only by the stored text (docs/spec-differences.md,
 * "Fault titles"). Parameters (status codes, values) are matched through the stored text, which holds them.
 */
export function codesMatching(q: string): string[] {
  const needle = searchFold(q);
  if (!needle) return [];
  return MESSAGE_PARTS.filter(({ parts }) => parts.some((part) => part.includes(needle))).map(
    ({ code }) => code,
  );
}

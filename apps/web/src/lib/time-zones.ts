/** Time zones offered first: the console's home markets and UTC. */
export const PREFERRED_TIME_ZONES = ['Europe/Istanbul', 'Europe/Skopje', 'Europe/Berlin', 'UTC'] as const;

/** IANA time zone names for a select: the preferred ones, then every zone the browser knows. */
export function timeZoneNames(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set<string>([...PREFERRED_TIME_ZONES, ...known])];
}

/** Query keys of the map's own calls (its plants come from the plants feature's overview). */
export const mapKeys = {
  all: ['map'] as const,
  settings: () => [...mapKeys.all, 'settings'] as const,
};

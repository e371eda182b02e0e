/** The items of the chosen plants; every item when no plant was chosen (the widget covers the whole scope). */
export function ofPlants<T extends { plant_id: number }>(
  items: readonly T[],
  plantIds: readonly number[],
): T[] {
  if (plantIds.length === 0) return [...items];
  const chosen = new Set(plantIds);
  return items.filter((it) => chosen.has(it.plant_id));
}

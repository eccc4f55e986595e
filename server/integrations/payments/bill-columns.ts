/**
 * Where each named column stands in a bill's header line. A column given as a list is the first of those names
 * the header has (bills of different dates name some columns differently); a missing column throws an Error naming
 * the bill and the column (the last name tried).
 */
export function billColumns<K extends string>(
  header: readonly string[],
  bill: string,
  names: Record<K, string | readonly string[]>,
): Record<K, number> {
  const at = {} as Record<K, number>
  for (const key of Object.keys(names) as K[]) {
    const tried = [names[key]].flat()
    const i = tried.map((name) => header.indexOf(name)).find((index) => index >= 0)
    if (i === undefined) throw new Error(`${bill} has no column ${tried[tried.length - 1]}`)
    at[key] = i
  }
  return at
}

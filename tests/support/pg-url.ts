/** The migrated database each test file's database is cloned from. */
export const TEMPLATE_DB = 'zixue_template'

export function withDatabase(url: string, database: string) {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

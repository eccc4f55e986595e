// A row as the API shows it: camelCase columns as snake_case fields, dates as ISO strings. Views that only rename
// (a lead, a plan, a schedule line) are this, so they are not written out field by field; the response schema
// decides what is sent (it strips the rest).

type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S

type Shown<V> = V extends Date ? string : V

export type SnakeView<T> = { [K in keyof T as Snake<K & string>]: Shown<T[K]> }

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** `{ courseId: 1, createdAt: Date }` → `{ course_id: 1, created_at: '2026-…Z' }` (null stays null). */
export function snakeView<T extends object>(row: T): SnakeView<T> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [snake(k), v instanceof Date ? v.toISOString() : v]),
  ) as SnakeView<T>
}

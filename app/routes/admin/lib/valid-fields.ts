import type { FormInstance } from 'antd'
import { ConsoleError } from './client.ts'

type NamePath = string | number | (string | number)[]

/**
 * The form's values once its rules pass, or null when one fails: antd's `form.validateFields()` rejects with an
 * errorInfo object (not an Error) when a rule fails, and a dialog's OK that awaits it unhandled leaves the page an
 * uncaught 「Object」. The messages are under their fields already, so a null answer needs nothing more:
 * `const v = await validFields(form); if (!v) return`. Never throws. `names`: only these fields.
 */
export async function validFields<T>(form: FormInstance<T>, names?: NamePath[]): Promise<T | null> {
  try {
    return await (names ? form.validateFields(names as never) : form.validateFields())
  } catch {
    return null
  }
}

/**
 * Shows a refusal under the field it is about (`data.field`, ConsoleError.field, e.g. "original_price_fen"), when
 * the form has a field by that name (`nameOf` turns an API field into the form's own name where they differ).
 * Answers whether it did, so the caller shows the message elsewhere otherwise.
 */
export function showUnderField(
  form: FormInstance | undefined,
  error: unknown,
  nameOf: (apiField: string) => string | undefined = (f) => f,
): boolean {
  const apiField = error instanceof ConsoleError ? error.field : undefined
  const name = form && apiField ? nameOf(apiField) : undefined
  if (!form || !name) return false
  // Registered fields (even empty ones) and anything the form holds.
  const fields = { ...(form.getFieldsValue(true) as object), ...(form.getFieldsValue() as object) }
  if (!(name in fields)) return false
  form.setFields([{ name: name as never, errors: [(error as Error).message] }])
  return true
}

/** What an operator reads for a failed action: the server's own words, or a plain sentence for anything else. */
export function refusalText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return '操作没有完成，请重试'
}

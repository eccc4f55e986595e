import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Form } from 'antd'
import { useState } from 'react'

/**
 * A console write: the call, a success message, the queries it changed refetched, the error shown. `keys` are
 * query-key prefixes (['catalogue'] refetches every catalogue list, ['table', id] one console table).
 */
export function useWrite<V, R>(call: (v: V) => Promise<R>, done: string | ((r: R) => string), keys: unknown[][]) {
  const { message } = App.useApp()
  const client = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSuccess: (r) => {
      message.success(typeof done === 'string' ? done : done(r))
      for (const queryKey of keys) void client.invalidateQueries({ queryKey })
    },
    onError: (e) => message.error(e.message),
  })
}

/**
 * A screen's add/edit dialog: the record it edits (`editing`, null while adding), its form (named `name`), filled by
 * `fill` on opening (`open(row)`, `open(null)` to add, `preset` values over those). `dialog` is what FormDialog takes
 * of it (spread it).
 */
export function useEditor<R, V>(name: string, fill: (row: R | null) => Partial<V>) {
  const [state, setState] = useState<{ row: R | null } | null>(null)
  const [form] = Form.useForm<V>()
  const close = () => setState(null)
  return {
    form,
    editing: state?.row ?? null,
    open: (row: R | null, preset?: Partial<V>) => {
      form.resetFields()
      form.setFieldsValue({ ...fill(row), ...preset })
      setState({ row })
    },
    close,
    dialog: { open: state !== null, form, name, onClose: close },
  }
}

import { Alert, App, type FormInstance } from 'antd'
import { useCallback, type ReactNode } from 'react'
import { refusalText, showUnderField } from './valid-fields.ts'

/** What a confirmation asks and the action it runs. */
export interface ConfirmAsk {
  title: ReactNode
  content?: ReactNode
  okText: ReactNode
  /** 取消 unless told (「再想想」). */
  cancelText?: ReactNode
  /** A red OK button: the action takes something away. */
  danger?: boolean
  /**
   * The action, run on OK: the dialog waits with its button loading and closes once it succeeds. A refusal
   * (a rejected promise, e.g. a mutation's `mutateAsync`) keeps it open with the server's words in it.
   */
  run: () => Promise<unknown> | void
  /**
   * The form the confirmed values came from: a refusal about one of its fields (`data.field`) shows under that
   * field too, so it is there when the operator goes back to change it. `nameOf` maps API to form names.
   */
  form?: FormInstance
  nameOf?: (apiField: string) => string | undefined
  afterClose?: () => void
}

/**
 * Asks before an action and runs it: `confirm({ title, content, okText, run })` opens the console's confirmation
 * (OK and 取消). OK runs `run` with the button loading; success closes the dialog; a refusal stops the spinner,
 * keeps the dialog open and shows the server's message inside it (under the form field it names too, given
 * `form`), so the operator reads why and can cancel or try again. Nothing is left rejected for the page. The
 * function is stable across renders (as antd's modal is), so it can be a hook dependency.
 */
export function useConfirm() {
  const { modal } = App.useApp()
  return useCallback(
    ({ run, danger, content, form, nameOf, ...ask }: ConfirmAsk) => {
      const shown = (refusal?: string) =>
        refusal === undefined ? (
          content
        ) : (
          <>
            {content}
            <Alert className="zx-confirm-refusal" type="error" showIcon title={refusal} style={{ marginTop: 12 }} />
          </>
        )
      const dialog = modal.confirm({
        ...ask,
        content,
        cancelText: ask.cancelText ?? '取消',
        okButtonProps: { danger },
        onOk: async () => {
          dialog.update({ content: shown() })
          try {
            await run()
          } catch (e) {
            showUnderField(form, e, nameOf)
            dialog.update({ content: shown(refusalText(e)) })
            // Rejecting is what keeps antd's confirm open (with its spinner stopped); awaiting the dialog below
            // puts it in its quiet mode, where the rejection goes no further.
            throw e
          }
        },
      })
      // Awaited (antd's promise mode): a refused `run` is not re-thrown as an unhandled rejection.
      void dialog.then(
        () => undefined,
        () => undefined,
      )
    },
    [modal],
  )
}

/** `useConfirm` with a red OK button, for actions that take something away (delete, switch off, revoke). */
export function useDangerConfirm() {
  const confirm = useConfirm()
  return useCallback((ask: Omit<ConfirmAsk, 'danger'>) => confirm({ ...ask, danger: true }), [confirm])
}

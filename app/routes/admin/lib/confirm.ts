import { App, type ModalFuncProps } from 'antd'
import { useCallback } from 'react'

/**
 * Asks before a destructive action: `confirm({ title, content, okText, onOk })` opens the console's confirmation
 * (a red ok button and 取消); the action runs on ok and the dialog waits for it. The function is stable across
 * renders (as antd's modal is), so it can be a hook dependency.
 */
export function useDangerConfirm() {
  const { modal } = App.useApp()
  return useCallback(
    (props: ModalFuncProps) => modal.confirm({ ...props, okButtonProps: { danger: true }, cancelText: '取消' }),
    [modal],
  )
}

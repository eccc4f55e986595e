import { App } from 'antd'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useBeforeUnload, useBlocker } from 'react-router'

/**
 * A form's unsaved changes, kept from being lost: leaving the screen from the console's menu, a link or the back
 * button asks first (离开 / 继续编辑); closing or reloading the tab gets the browser's own question. `changed()`
 * when the operator edits (the form's onValuesChange), `saved()` once the server has the values. The flag is also
 * kept in a ref: a save that navigates at once (a new course to its page) reads it before React renders again.
 */
export function useUnsavedChanges() {
  const { modal } = App.useApp()
  const [dirty, setDirty] = useState(false)
  const dirtyRef = useRef(false)
  const mark = useCallback((value: boolean) => {
    dirtyRef.current = value
    setDirty(value)
  }, [])
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  )
  // One question per blocked navigation, however often the screen renders while it is asked.
  const asking = useRef(false)
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return
    asking.current = true
    modal.confirm({
      title: '有未保存的修改',
      content: '离开这个页面，刚才的修改不会保存。',
      okText: '离开',
      cancelText: '继续编辑',
      okButtonProps: { danger: true },
      onOk: () => {
        asking.current = false
        blocker.proceed()
      },
      onCancel: () => {
        asking.current = false
        blocker.reset()
      },
    })
  }, [blocker, modal])
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (dirty) event.preventDefault()
      },
      [dirty],
    ),
  )
  return { dirty, changed: useCallback(() => mark(true), [mark]), saved: useCallback(() => mark(false), [mark]) }
}

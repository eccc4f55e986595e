import { App } from 'antd'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'

/** A plain left click on a link to another console page: what React Router's links navigate on. */
function leavingLink(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null
  const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>('a[href]') : null
  if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null
  const url = new URL(link.href, window.location.href)
  return url.origin === window.location.origin && url.pathname !== window.location.pathname ? url : null
}

/**
 * A form's unsaved changes, kept from being lost: following a link to another page (the console's menu, the back
 * arrow) or the browser's back and forward buttons ask first (离开 / 继续编辑); closing or reloading the tab gets the
 * browser's own question. `changed()` when the operator edits (the form's onValuesChange), `saved()` once the server
 * has the values.
 *
 * Links are caught in the capture phase, before React Router's own handler. The browser's buttons are caught with
 * the Navigation API's `navigate` event, whose history moves within the page can be cancelled before React Router
 * hears of them (every current browser has it since early 2026, per MDN; in older ones those buttons leave without
 * asking). A `popstate` listener cannot do it: it runs after the router's, which was added first. Not React Router's
 * `useBlocker`: the learner pages share React Router's chunk, and that hook put them over their first-load budget
 * (issue 11 §4).
 */
export function useUnsavedChanges() {
  const { modal } = App.useApp()
  const navigate = useNavigate()
  const [dirty, setDirty] = useState(false)
  const asking = useRef(false)
  useEffect(() => {
    if (!dirty) return
    /** Set once the operator chose 离开: the move that follows is let through. */
    let leaving = false
    const ask = (leave: () => void) => {
      if (asking.current) return
      asking.current = true
      modal.confirm({
        title: '有未保存的修改',
        content: '离开这个页面，刚才的修改不会保存。',
        okText: '离开',
        cancelText: '继续编辑',
        okButtonProps: { danger: true },
        onOk: () => {
          asking.current = false
          leaving = true
          setDirty(false)
          leave()
        },
        onCancel: () => {
          asking.current = false
        },
      })
    }
    const onClick = (e: MouseEvent) => {
      const url = leavingLink(e)
      if (!url) return
      e.preventDefault()
      e.stopPropagation()
      ask(() => void navigate(url.pathname + url.search + url.hash))
    }
    const browserHistory = typeof navigation === 'undefined' ? null : navigation
    const onNavigate = (e: NavigateEvent) => {
      if (leaving || e.navigationType !== 'traverse' || !e.cancelable) return
      e.preventDefault()
      const { key } = e.destination
      ask(() => {
        // A move the browser drops (another one came first) is no error here.
        const moved = browserHistory?.traverseTo(key)
        moved?.committed?.catch(() => {})
        moved?.finished?.catch(() => {})
      })
    }
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault()
    document.addEventListener('click', onClick, true)
    browserHistory?.addEventListener('navigate', onNavigate)
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => {
      document.removeEventListener('click', onClick, true)
      browserHistory?.removeEventListener('navigate', onNavigate)
      window.removeEventListener('beforeunload', onBeforeUnload)
    }
  }, [dirty, modal, navigate])
  return { dirty, changed: useCallback(() => setDirty(true), []), saved: useCallback(() => setDirty(false), []) }
}

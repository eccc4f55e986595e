import { useEffect, useRef } from 'react'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'
import styles from './overlay-view.module.css'
import { BellIcon, CloseIcon } from '#app/components/icons/line-icons.tsx'

/**
 * One notice: a text notice (icon, name, content, confirm button, close icon) or an image notice (the image is
 * the button). so_content was sanitised by the server and is the only HTML rendered as such.
 */
export default function OverlayView({
  overlay,
  onClose,
  onOpen,
  reserveBottom = 0,
}: {
  overlay: SystemOverlay
  onClose: () => void
  onOpen: () => void
  /** Pixels at the bottom left uncovered: the page's primary action bar stays visible and tappable. */
  reserveBottom?: number
}) {
  const dialog = useRef<HTMLDivElement>(null)
  useEffect(() => {
    dialog.current?.focus()
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  const close = (
    <button type="button" className={styles.close} onClick={onClose} aria-label="关闭">
      <CloseIcon size={18} />
    </button>
  )

  return (
    <div
      className={styles.mask}
      style={reserveBottom > 0 ? { bottom: reserveBottom } : undefined}
      role="presentation"
      data-testid="system-overlay"
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label={overlay.so_name}
        tabIndex={-1}
        className={styles.dialogWrap}
      >
        {overlay.so_type === 2 && overlay.so_image ? (
          <div className={styles.imageBox}>
            <button type="button" className={styles.imageButton} onClick={onOpen}>
              <img src={overlay.so_image} alt={overlay.so_name} className={styles.image} />
            </button>
            <div className={styles.below}>{close}</div>
          </div>
        ) : (
          <div className={styles.card}>
            <div className={styles.cornerClose}>{close}</div>
            <div className={styles.icon} aria-hidden="true">
              {overlay.so_image ? (
                <img src={overlay.so_image} alt="" className={styles.iconImage} />
              ) : (
                <BellIcon size={30} weight={1.8} />
              )}
            </div>
            <h2 className={styles.title}>{overlay.so_name}</h2>
            <div className={styles.content} dangerouslySetInnerHTML={{ __html: overlay.so_content }} />
            <button type="button" className={styles.confirm} onClick={onOpen}>
              {overlay.so_btn || '我知道了'}
            </button>
          </div>
        )}
      </div>
    </div>
  )
}

import type { z } from 'zod'
import type { PlayerPopup } from '#server/modules/learning/learning.schema.ts'
import styles from './overlays.module.css'

/** One popup of GET /popup/player/v2. */
export type PlayerPopupData = z.infer<typeof PlayerPopup>

/** A popup card over the corner of the video (GET /popup/player/v2); the video keeps playing underneath. */
export function PlayerPopupCard({
  popup,
  onOpen,
  onClose,
}: {
  popup: PlayerPopupData
  onOpen: () => void
  onClose: () => void
}) {
  return (
    <aside className={styles.popup} aria-label={popup.title} data-testid="player-popup">
      {popup.image ? <img className={styles.popupImage} src={popup.image} alt="" width={64} height={64} /> : null}
      <div className="zx-textColumn">
        <strong className={styles.popupTitle}>{popup.title}</strong>
        {popup.content ? <span className={styles.popupContent}>{popup.content}</span> : null}
      </div>
      {popup.link ? (
        <button type="button" className={styles.popupAction} onClick={onOpen}>
          查看
        </button>
      ) : null}
      <button type="button" className={styles.popupClose} onClick={onClose} aria-label="关闭">
        ×
      </button>
    </aside>
  )
}

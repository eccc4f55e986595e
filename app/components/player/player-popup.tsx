import styles from './overlays.module.css'

export interface PlayerPopupData {
  id: number
  at_second: number
  title: string
  content: string
  image: string | null
  link: string | null
}

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
      <div className={styles.popupText}>
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

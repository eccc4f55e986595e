import styles from './overlays.module.css'

/**
 * Part of the member's id drifting slowly over the picture: a screen recording shows whose account it came from.
 * Pure CSS (no timers), and it never takes a tap.
 */
export function Watermark({ text }: { text: string }) {
  return (
    <div className={styles.watermarkLayer} aria-hidden="true">
      <span className={styles.watermark} data-testid="player-watermark">
        {text}
      </span>
    </div>
  )
}

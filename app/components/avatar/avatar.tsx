import styles from './avatar.module.css'

/** A member's round avatar; the default is a drawn silhouette, not a stock photo. */
export function Avatar({ src, size = 64, alt = '头像' }: { src?: string | null; size?: number; alt?: string }) {
  return (
    <span className={styles.avatar} style={{ width: size, height: size }}>
      {src ? (
        <img src={src} alt={alt} width={size} height={size} className={styles.image} />
      ) : (
        <svg viewBox="0 0 64 64" width={size} height={size} role="img" aria-label="默认头像">
          <rect width="64" height="64" fill="#ffe3d9" />
          <circle cx="32" cy="25" r="11" fill="#f5866a" />
          <path d="M12 58c2-11 10-17 20-17s18 6 20 17z" fill="#f5866a" />
        </svg>
      )}
    </span>
  )
}

/**
 * Geometry of the draggable service button (spec 2 and 9): it starts at 78% of the viewport height on the right
 * edge, follows the finger while dragged, then snaps to the nearer side of the page column. A press shorter than
 * 100 ms that barely moved is a tap and opens the service chat.
 */
export const START_HEIGHT_RATIO = 0.78
export const TAP_MAX_MS = 100
/** Finger jitter allowed in a tap, in CSS pixels. */
const TAP_MAX_MOVE = 6
const EDGE_MARGIN = 12

export type Side = 'left' | 'right'

export function startTop(viewportHeight: number, buttonHeight: number, margin = EDGE_MARGIN): number {
  return clampTop(viewportHeight * START_HEIGHT_RATIO, buttonHeight, viewportHeight, margin)
}

/** Keeps the button fully on screen vertically. */
export function clampTop(top: number, buttonHeight: number, viewportHeight: number, margin = EDGE_MARGIN): number {
  const max = Math.max(margin, viewportHeight - buttonHeight - margin)
  return Math.min(Math.max(top, margin), max)
}

/** The side of the column nearer to the button's centre; the exact middle goes right, where it started. */
export function snapSide(buttonCenterX: number, columnLeft: number, columnWidth: number): Side {
  return buttonCenterX < columnLeft + columnWidth / 2 ? 'left' : 'right'
}

export function isTap(durationMs: number, distance: number): boolean {
  return durationMs < TAP_MAX_MS && distance <= TAP_MAX_MOVE
}

export interface Box {
  left: number
  right: number
  top: number
  bottom: number
}

/** Whether two boxes share any area (touching edges do not count). */
export function boxesOverlap(a: Box, b: Box): boolean {
  return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top
}

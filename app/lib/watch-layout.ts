/**
 * Calls `onChange` whenever what the page shows may have moved: something under `root` was added or removed (a
 * list or a bar that arrived later; changed text too, with `text`) or the window was resized. Returns the function
 * that stops watching, the shape an effect's clean-up wants.
 */
export function watchLayout(root: Node, onChange: () => void, options: { text?: boolean } = {}): () => void {
  const observer = new MutationObserver(onChange)
  observer.observe(root, { childList: true, subtree: true, ...(options.text ? { characterData: true } : {}) })
  window.addEventListener('resize', onChange)
  return () => {
    observer.disconnect()
    window.removeEventListener('resize', onChange)
  }
}

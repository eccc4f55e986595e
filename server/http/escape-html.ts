const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe inside HTML the server writes itself (the simulators' pages): in an element or a quoted attribute. */
export function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => entities[c]!)
}

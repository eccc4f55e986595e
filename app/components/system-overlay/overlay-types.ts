/** One system notice as GET /api/systemOverlay lists it (spec 3). */
export interface SystemOverlay {
  so_id: number
  /** 1 text notice, 2 image. */
  so_type: number
  so_name: string
  /** Sanitised HTML (text notices). */
  so_content: string
  so_btn: string
  so_image: string | null
  /** 1 course, 2 category, 4 custom URL. */
  so_jump_type: number | null
  so_jump_params: Record<string, unknown> | null
}

import { api } from '#app/lib/api.ts'
import { authStore } from '#app/lib/auth-store.ts'
import { showLogin } from '#app/lib/events.ts'
import { toast } from '#app/lib/toast.ts'
import { CommentReportReasonNames, CommentReportReasons } from '#shared/comment-report-reasons.ts'

type SheetModule = typeof import('antd-mobile/es/components/action-sheet')
let loading: Promise<SheetModule['default']> | undefined

/** antd-mobile's ActionSheet, loaded on the first report (pages that never report never carry it). */
function loadSheet() {
  loading ??= Promise.all([import('antd-mobile/es/components/action-sheet'), import('#app/lib/antd-react19.ts')]).then(
    ([m, setup]) => {
      setup.enableAntdImperativeRender()
      return m.default
    },
  )
  return loading
}

/**
 * 举报: asks anonymous visitors to log in, then for a reason (an action sheet), and sends POST /comment/report.
 * A second report of the same comment answers with the server's message (the request wrapper shows it).
 */
export async function reportComment(commentId: number) {
  if (!authStore.isLoggedIn()) {
    showLogin()
    return
  }
  const ActionSheet = await loadSheet()
  const handler = ActionSheet.show({
    extra: '举报这条评论的原因',
    cancelText: '取消',
    closeOnAction: true,
    actions: CommentReportReasons.map((reason) => ({
      key: reason,
      text: CommentReportReasonNames[reason],
      onClick: () => {
        handler.close()
        api
          .post('/comment/report', { id: commentId, reason })
          .then(() => toast('已收到你的举报，我们会尽快处理', { icon: 'success' }))
          .catch(() => {
            // The request wrapper has shown why.
          })
      },
    })),
  })
}

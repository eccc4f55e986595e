import { Form, Input } from 'antd'
import { HotWordBody } from '#shared/api/admin-hot-words.ts'
import { api } from '../../lib/client.ts'
import { actionsColumn } from '../../lib/columns.tsx'
import { useDangerConfirm } from '../../lib/confirm.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { useMe } from '../../lib/me.ts'
import { OrderedListScreen, useOrderedList } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'

type Word = { id: number; word: string; sort: number }
type Values = { word: string }
const key = ['storefront', 'hot-words']

/** The hot words under the learners' search box, in order: add, change, reorder, remove (confirmed). */
export default function HotWords() {
  const confirm = useDangerConfirm()
  const edit = useMe().may('marketing.edit')
  const words = useOrderedList<Word>(key, '/admin/hot-words', '/admin/hot-words/order')
  const editor = useEditor<Word, Values>('hot_word', (w) => ({ word: w?.word ?? '' }))
  const save = useWrite(
    (v: Values) =>
      editor.editing
        ? api.patch<Word>(`/admin/hot-words/${editor.editing.id}`, v)
        : api.post<Word>('/admin/hot-words', v),
    (w) => `已保存热词「${w.word}」`,
    [key],
  )
  const remove = useWrite((w: Word) => api.delete(`/admin/hot-words/${w.id}`), '已删除', [key])

  return (
    <>
      <OrderedListScreen<Word>
        title="搜索热词"
        add={edit && { label: '添加热词', onClick: () => editor.open(null) }}
        of={words}
        numbered={80}
        empty="还没有热词。学员的搜索页会显示这里的词，点「添加热词」。"
        columns={[
          { title: '热词', dataIndex: 'word' },
          ...actionsColumn<Word>(
            (w, i) => (
              <>
                {words.move(i)}
                <a onClick={() => editor.open(w)}>编辑</a>
                <a
                  className="zx-console-danger"
                  onClick={() =>
                    confirm({
                      title: `删除热词「${w.word}」`,
                      content: '删除后学员的搜索页不再显示这个词。',
                      okText: '确认删除',
                      run: () => remove.mutateAsync(w),
                    })
                  }
                >
                  删除
                </a>
              </>
            ),
            edit,
            260,
          ),
        ]}
      />
      <FormDialog {...editor.dialog} title={editor.editing ? '编辑热词' : '添加热词'} save={save}>
        <Form.Item label="热词" name="word" rules={[zodRule(HotWordBody.shape.word)]}>
          <Input maxLength={20} showCount />
        </Form.Item>
      </FormDialog>
    </>
  )
}

import { useQuery } from '@tanstack/react-query'
import { Form, Input, Space, Table } from 'antd'
import { useState } from 'react'
import { HotWordBody } from '#shared/api/admin-hot-words.ts'
import { api } from '../../lib/client.ts'
import { useDangerConfirm } from '../../lib/confirm.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { moveButtons } from '../../lib/move-buttons.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { useWrite } from '../catalogue/use-catalogue.ts'

type Word = { id: number; word: string; sort: number }
const key = ['storefront', 'hot-words']

/** The hot words under the learners' search box, in order: add, change, reorder, remove (confirmed). */
export default function HotWords() {
  const confirm = useDangerConfirm()
  const edit = useMe().may('marketing.edit')
  const words = useQuery({ queryKey: key, queryFn: () => api.get<{ list: Word[] }>('/admin/hot-words') })
  const list = words.data?.list ?? []
  const [open, setOpen] = useState<Word | 'new' | null>(null)
  const [form] = Form.useForm<{ word: string }>()
  const save = useWrite(
    (v: { word: string }) =>
      open === 'new' || open === null
        ? api.post<Word>('/admin/hot-words', v)
        : api.patch<Word>(`/admin/hot-words/${open.id}`, v),
    (w) => `已保存热词「${w.word}」`,
    [key],
  )
  const order = useWrite((ids: number[]) => api.post('/admin/hot-words/order', { ids }), '已调整顺序', [key])
  const remove = useWrite((w: Word) => api.delete(`/admin/hot-words/${w.id}`), '已删除', [key])
  const show = (w: Word | 'new') => {
    form.setFieldsValue({ word: w === 'new' ? '' : w.word })
    setOpen(w)
  }
  const ids = list.map((w) => w.id)

  return (
    <>
      <ListHeader
        title="搜索热词"
        add={edit && { label: '添加热词', onClick: () => show('new') }}
        error={words.error}
      />
      <div className="zx-console-table">
        <Table<Word>
          rowKey="id"
          dataSource={list}
          loading={words.isFetching}
          pagination={false}
          locale={{ emptyText: '还没有热词。学员的搜索页会显示这里的词，点「添加热词」。' }}
          columns={[
            { title: '顺序', key: 'n', width: 80, render: (_, __, i) => i + 1 },
            { title: '热词', dataIndex: 'word' },
            ...(edit
              ? [
                  {
                    title: '操作',
                    key: 'a',
                    width: 260,
                    render: (_: unknown, w: Word, i: number) => (
                      <Space>
                        {moveButtons(ids, i, order.mutate)}
                        <a onClick={() => show(w)}>编辑</a>
                        <a
                          className="zx-console-danger"
                          onClick={() =>
                            confirm({
                              title: `删除热词「${w.word}」`,
                              content: '删除后学员的搜索页不再显示这个词。',
                              okText: '确认删除',
                              onOk: () => remove.mutateAsync(w),
                            })
                          }
                        >
                          删除
                        </a>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </div>
      <FormDialog
        title={open === 'new' ? '添加热词' : '编辑热词'}
        open={open !== null}
        form={form}
        name="hot_word"
        saving={save.isPending}
        onSave={save.mutateAsync}
        onClose={() => setOpen(null)}
      >
        <Form.Item label="热词" name="word" rules={[zodRule(HotWordBody.shape.word)]}>
          <Input maxLength={20} showCount />
        </Form.Item>
      </FormDialog>
    </>
  )
}

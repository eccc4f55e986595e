import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { api } from './client.ts'

/**
 * A list's course filter (a ConsoleTable's `toolbar`): a course picked by part of its title
 * (GET /api/admin/courses?q=, so only for staff who may read the courses), kept in the URL as `course_id`.
 */
export function CourseFilter() {
  const [search, setSearch] = useSearchParams()
  const [text, setText] = useState('')
  const value = search.get('course_id') ?? undefined
  const courses = useQuery({
    queryKey: ['course-filter', text],
    queryFn: () =>
      api.get<{ list: { id: number; title: string }[] }>('/admin/courses', { q: text, limit: 20, page_size: 20 }),
  })
  const options = (courses.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.title }))
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: `课程 #${value}` })
  return (
    <Select
      allowClear
      showSearch={{ filterOption: false, onSearch: setText }}
      placeholder="课程"
      aria-label="课程"
      value={value}
      options={options}
      loading={courses.isFetching}
      onChange={(v?: string) => {
        const next = new URLSearchParams(search)
        if (v) next.set('course_id', v)
        else next.delete('course_id')
        next.delete('page')
        setSearch(next)
      }}
      style={{ width: 220 }}
    />
  )
}

import { Col, Form, Input, InputNumber, Radio, Row, Select, type FormInstance } from 'antd'
import { CourseCreate } from '#shared/api/catalogue-editing.ts'
import { beijingInput, fenOf, isoFromBeijing } from '../../lib/format.ts'
import { ImageField } from '../../lib/image-field.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { options } from '../../lib/console-table.tsx'
import { courseLevelNames, courseStatusNames, courseTypeNames } from './names.ts'
import { categoryOptions, useCategories, useTeachers, type Course } from './use-catalogue.ts'
import { SwitchField, TextField } from '../../lib/fields.tsx'

/** What the course form holds: prices typed in yuan, live times in Beijing time. */
export interface CourseValues {
  type: Course['type']
  title: string
  subtitle: string
  category_id: number
  teacher_id: number | null
  cover_url: string
  intro: string
  price_yuan: number
  original_yuan: number | null
  points_price: number | null
  is_free: boolean
  vip_free: boolean
  status: Course['status']
  level: Course['level']
  tags: string[]
  live_starts_at: string
  live_ends_at: string
  live_pull_url: string
  consult_qr: string | null
  consult_url: string
  sort: number
}

/** Every field of the form (a server message naming one of them goes under it). */
export const courseFields: (keyof CourseValues)[] = [
  'type',
  'title',
  'subtitle',
  'category_id',
  'teacher_id',
  'cover_url',
  'intro',
  'price_yuan',
  'original_yuan',
  'points_price',
  'is_free',
  'vip_free',
  'status',
  'level',
  'tags',
  'live_starts_at',
  'live_ends_at',
  'live_pull_url',
  'consult_qr',
  'consult_url',
  'sort',
]

const shape = CourseCreate.shape
const nullIfEmpty = (v: unknown) => (v === undefined || v === '' ? null : v)

/** An address the course may leave empty (sent as null), checked by the course schema's field of that name. */
function UrlField(props: { label: string; name: 'live_pull_url' | 'consult_url'; extra: string; placeholder: string }) {
  return <TextField {...props} schema={shape[props.name]} toApi={nullIfEmpty} />
}

/** The form's fields named as the API names them (the server's messages end with the API's field). */
export const apiFieldOf: Record<string, keyof CourseValues> = {
  price_fen: 'price_yuan',
  original_price_fen: 'original_yuan',
}

/** A live course's schedule and stream as the form holds them (Beijing times, an empty stream as ''). */
export type LiveValues = Pick<CourseValues, 'live_starts_at' | 'live_ends_at' | 'live_pull_url'>

export const liveValues = (c: Course): LiveValues => ({
  live_starts_at: beijingInput(c.live_starts_at),
  live_ends_at: beijingInput(c.live_ends_at),
  live_pull_url: c.live_pull_url ?? '',
})

/** The API fields of a live schedule: ISO instants, no stream as null. */
export const liveBody = (v: LiveValues) => ({
  live_starts_at: isoFromBeijing(v.live_starts_at),
  live_ends_at: isoFromBeijing(v.live_ends_at),
  live_pull_url: v.live_pull_url || null,
})

/** The live schedule's fields (the course form's and the live schedule's dialog); `prefix` starts their labels. */
export function LiveFields({ prefix = '' }: { prefix?: string }) {
  return (
    <>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label={`${prefix}开始（北京时间）`} name="live_starts_at">
            <Input type="datetime-local" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={`${prefix}结束（北京时间）`} name="live_ends_at">
            <Input type="datetime-local" />
          </Form.Item>
        </Col>
      </Row>
      <UrlField
        label={`${prefix}拉流地址`}
        name="live_pull_url"
        extra="HLS 拉流地址（http/https），直播期间播放"
        placeholder="https://live.example.com/room/index.m3u8"
      />
    </>
  )
}

/** A system course's own consultation contact (GET /course/contact); empty: the site's default (客服设置). */
function ConsultFields() {
  return (
    <>
      <Form.Item label="课程顾问企业微信二维码" name="consult_qr" rules={[zodRule(shape.consult_qr, nullIfEmpty)]}>
        <ImageField label="企业微信二维码" />
      </Form.Item>
      <UrlField
        label="课程顾问企业微信链接"
        name="consult_url"
        extra="体系课页面的“联系课程顾问”；都不填则用客服设置里的默认联系方式"
        placeholder="https://work.weixin.qq.com/ca/…"
      />
    </>
  )
}

export function courseValues(c?: Course): Partial<CourseValues> {
  if (!c)
    return { type: 'series', status: 'draft', level: 'beginner', is_free: false, vip_free: false, tags: [], sort: 0 }
  return {
    ...c,
    price_yuan: c.price_fen / 100,
    original_yuan: c.original_price_fen === null ? null : c.original_price_fen / 100,
    ...liveValues(c),
    consult_url: c.consult_url ?? '',
  }
}

/** The API body of the form's values: fen from yuan, ISO instants from Beijing times, empty as null. */
export function courseBody(v: CourseValues) {
  const live = v.type === 'live'
  return {
    type: v.type,
    title: v.title,
    subtitle: v.subtitle ?? '',
    category_id: v.category_id,
    teacher_id: v.teacher_id ?? null,
    cover_url: v.cover_url,
    intro: v.intro ?? '',
    price_fen: v.is_free ? 0 : (fenOf(v.price_yuan) ?? 0),
    original_price_fen: fenOf(v.original_yuan) ?? null,
    points_price: v.points_price ?? null,
    is_free: v.is_free,
    vip_free: v.vip_free,
    status: v.status,
    level: v.level,
    tags: v.tags ?? [],
    ...(live ? liveBody(v) : { live_starts_at: null, live_ends_at: null, live_pull_url: null }),
    consult_qr: v.consult_qr || null,
    consult_url: v.consult_url || null,
    sort: v.sort ?? 0,
  }
}

/**
 * The course's fields; each validated by the API's own schema (prices checked as the fen they become). The number
 * boxes have no min: antd would clamp a typed −5 to the bound on blur and save it; the schema's message says why.
 */
export function CourseForm({
  form,
  disabled,
  onChange,
}: {
  form: FormInstance<CourseValues>
  disabled?: boolean
  /** The operator changed a value (not a value loaded into the form). */
  onChange?: () => void
}) {
  const categories = useCategories().data
  const teachers = useTeachers().data ?? []
  const type = Form.useWatch('type', form)
  const free = Form.useWatch('is_free', form)
  return (
    <Form
      form={form}
      name="course"
      layout="vertical"
      initialValues={courseValues()}
      disabled={disabled}
      onValuesChange={onChange}
      scrollToFirstError
    >
      {/* Two columns from a laptop's width; one on a tablet or phone, where two would squeeze every field. */}
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Form.Item label="课程类型" name="type" rules={[zodRule(shape.type)]}>
            <Radio.Group options={options(courseTypeNames)} optionType="button" />
          </Form.Item>
          <Form.Item
            label="标题"
            name="title"
            rules={[{ required: true, message: '请填写标题' }, zodRule(shape.title)]}
          >
            <Input maxLength={100} showCount />
          </Form.Item>
          <Form.Item label="副标题" name="subtitle" rules={[zodRule(shape.subtitle)]}>
            <Input maxLength={200} />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item label="分类" name="category_id" rules={[{ required: true, message: '请选择分类' }]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  options={categoryOptions(categories)}
                  placeholder="选择分类"
                />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="讲师" name="teacher_id">
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  placeholder="不指定"
                  options={teachers.map((t) => ({ value: t.id, label: t.name }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="简介" name="intro" rules={[zodRule(shape.intro)]}>
            <Input.TextArea rows={5} maxLength={20000} />
          </Form.Item>
          <Form.Item label="标签" name="tags" rules={[zodRule(shape.tags)]}>
            <Select mode="tags" placeholder="输入后回车，最多 10 个" tokenSeparators={[',', '，']} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={10}>
          <Form.Item label="封面" name="cover_url" rules={[{ required: true, message: '请上传封面' }]}>
            <ImageField label="课程封面" />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                label="售价（元）"
                name="price_yuan"
                rules={[
                  { required: !free, message: '请填写售价' },
                  zodRule(shape.price_fen, (v) => fenOf(v as number) ?? 0),
                ]}
              >
                <InputNumber precision={2} disabled={free} style={{ width: '100%' }} prefix="¥" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                label="原价（元）"
                name="original_yuan"
                rules={[zodRule(shape.original_price_fen, (v) => fenOf(v as number | null) ?? null)]}
                extra="划线价，可不填"
              >
                <InputNumber precision={2} style={{ width: '100%' }} prefix="¥" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            label="积分价"
            name="points_price"
            rules={[zodRule(shape.points_price, nullIfEmpty)]}
            extra="填了即可用积分兑换；不填只能用钱购买"
          >
            <InputNumber precision={0} style={{ width: '100%' }} suffix="积分" />
          </Form.Item>
          <Row gutter={16}>
            <Col span={8}>
              <SwitchField label="免费课" name="is_free" />
            </Col>
            <Col span={8}>
              <SwitchField label="VIP 免费" name="vip_free" />
            </Col>
            <Col span={8}>
              <Form.Item label="排序" name="sort" rules={[zodRule(shape.sort)]} extra="空为 0">
                <InputNumber precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="难度" name="level">
            <Radio.Group options={options(courseLevelNames)} />
          </Form.Item>
          <Form.Item
            label="状态"
            name="status"
            extra="上架后学员在搜索和分类里能看到（首页只显示「首页栏目」里选定的课程）；草稿和下架的不显示"
          >
            <Radio.Group options={options(courseStatusNames)} optionType="button" />
          </Form.Item>
          {type === 'live' && <LiveFields prefix="直播" />}
          {type === 'system' && <ConsultFields />}
        </Col>
      </Row>
    </Form>
  )
}

import { useState } from 'react'
import { sendStat } from '#app/lib/stat.ts'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/vip'
import { Empty } from '#app/components/page-state/page-state.tsx'
import { RadioCards } from '#app/components/choices/choices.tsx'
import { Section } from '#app/components/section/section.tsx'
import { courseHref, formatCount } from '#app/components/course-card/course-format.ts'
import { BareLink } from '#app/components/bare-link/bare-link.tsx'
import { formatYuan } from '#shared/money.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { services } from '#app/lib/services-context.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import styles from './vip.module.css'
import type { z } from 'zod'
import type { VipMembership } from '#server/modules/vip/vip.schema.ts'
import { useWechatShare } from '#app/lib/wechat-share.ts'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

export function meta() {
  return [{ title: '会员 - 自学' }, { name: 'description', content: '自学 VIP 会员：会员免费课程随心学。' }]
}

/** The plans on sale and some VIP-free courses, read on the server (no member data). */
export async function loader({ context }: Route.LoaderArgs) {
  return services(context).vip.centre()
}

/**
 * The VIP tab: the plans (each opens the VIP checkout /vipBuy?plan_id=) and VIP-free courses.
 */
export default function Vip() {
  const { plans, courses } = useLoaderData<typeof loader>()
  useWechatShare({ title: '自学 VIP 会员', desc: '会员免费课程随心学。', imgUrl: courses[0]?.cover })
  return (
    <main className={styles.page}>
      <section className={styles.hero}>
        <p className={styles.kicker}>自学 VIP</p>
        <h1 className={styles.title}>会员免费课，随心学</h1>
        <p className={styles.lead}>开通后，标有“VIP 免费”的课程在有效期内都可以免费学习。</p>
        <MyMembership />
      </section>

      <Section id="vip-plans" title="会员方案" className={styles.section} titleClassName="zx-sectionTitle">
        {plans.length === 0 ? <Empty message="暂时没有可开通的会员方案" /> : <PlanPicker plans={plans} />}
      </Section>

      <section className={styles.section} aria-labelledby="vip-courses">
        <div className="zx-spaceBetween">
          <h2 id="vip-courses" className="zx-sectionTitle">
            会员免费课程
          </h2>
          <Link to="/ke" className={styles.more}>
            全部课程
          </Link>
        </div>
        {courses.length === 0 ? (
          <Empty message="暂时没有会员免费课程" />
        ) : (
          // The rows carry no class each: the list's stylesheet places their parts (vip.module.css, "VIP-free
          // courses"), which keeps the server render lighter (issue 11 §3).
          <ul className={styles.courses}>
            {courses.map((course) => (
              <li key={course.id}>
                <BareLink to={courseHref(course.id)} prefetch={false}>
                  <CoverImage loading="lazy" src={course.cover} width={128} height={72} />
                  <div className="zx-textColumn">
                    <p className="zx-rowTitle">{course.title}</p>
                    <p>
                      {`${course.teacher_name ? `${course.teacher_name} · ` : ''}${formatCount(course.student_count)}人学过`}
                    </p>
                    <p>
                      <span>VIP 免费</span>
                      {course.price_fen > 0 ? <s>{`¥${formatYuan(course.price_fen)}`}</s> : null}
                    </p>
                  </div>
                </BareLink>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  )
}

type Membership = z.infer<typeof VipMembership>
type Plan = Awaited<ReturnType<typeof loader>>['plans'][number]

/**
 * The plans as selectable cards (a radio group, as on /vipBuy): the badge-marked plan (热销) is chosen first, and
 * 立即开通 opens the checkout with the chosen one. Cards are buttons, never links wrapping block content.
 */
function PlanPicker({ plans }: { plans: Plan[] }) {
  const [chosen, setChosen] = useState(() => (plans.find((p) => p.badge) ?? plans[0])!.id)
  const plan = plans.find((p) => p.id === chosen) ?? plans[0]!
  return (
    <>
      <RadioCards
        items={plans}
        chosen={plan.id}
        onChoose={setChosen}
        labelledBy="vip-plans"
        className={styles.plans}
        itemClass={(isChosen) => (isChosen ? `${styles.plan} ${styles.planChosen}` : styles.plan)}
      >
        {(p) => (
          <>
            {p.badge ? <span className={styles.badge}>{p.badge}</span> : null}
            <span className={styles.planName}>{p.name}</span>
            <span className={styles.price}>
              <span className={styles.currency}>¥</span>
              {formatYuan(p.price_fen)}
            </span>
            {p.original_price_fen && p.original_price_fen > p.price_fen ? (
              <s className={styles.original}>{`¥${formatYuan(p.original_price_fen)}`}</s>
            ) : null}
            <span className={styles.planDesc}>{p.description || `${p.days} 天有效`}</span>
          </>
        )}
      </RadioCards>
      <div className={styles.buyNote}>
        <Link
          to={`/vipBuy?plan_id=${plan.id}`}
          className={styles.buyButton}
          aria-label={`立即开通${plan.name}`}
          // The page's primary action: system overlays never cover or dim it (overlay-host.tsx).
          data-primary-action=""
          onClick={() => sendStat('vipBuyBtn')}
        >
          {`立即开通 · ${plan.name} ¥${formatYuan(plan.price_fen)}`}
        </Link>
      </div>
    </>
  )
}

/** The signed-in member's VIP (read in the browser: the token lives in localStorage), nothing for visitors. */
function MyMembership() {
  const membership = useApiGet<{ membership: Membership | null }>('/v2/vip', { member: true }).data?.membership
  if (!membership) return null
  return (
    <p className={styles.mine} data-testid="vip-membership">
      {membership.active
        ? `你的会员有效期至 ${formatTime(membership.expires_at)}`
        : `你的会员已于 ${formatTime(membership.expires_at)} 到期`}
    </p>
  )
}

export function ErrorBoundary() {
  return (
    <main className={styles.page}>
      <section className={styles.hero}>
        <h1 className={styles.title}>会员</h1>
      </section>
      <div className={styles.section}>
        <p className={styles.failed}>会员信息加载失败，请稍后下拉刷新或重新打开页面。</p>
        <Link to="/vip" reloadDocument className={styles.buyButton}>
          重新加载
        </Link>
      </div>
    </main>
  )
}

import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/for-you'
import { CheckoutPanel } from '#app/components/checkout/checkout-panel.tsx'
import checkout from '#app/components/checkout/checkout.module.css'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import { readById } from '#app/components/course-data/catalogue-loader.server.ts'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty } from '#app/components/page-state/page-state.tsx'
import { services } from '#app/lib/services-context.ts'
import { yuan } from '#app/lib/pay.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import styles from './for-you.module.css'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { useWechatShare } from '#app/lib/wechat-share.ts'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * /foryou/{id}: a course bundle with its courses and one-tap purchase (POST /foryou/pay); a member who owns some
 * of its courses sees and pays only the share of the rest. /foryou: the bundles on sale and courses picked for
 * the member. The server render is anonymous; what the member owns comes in the browser.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const s = services(context)
  if (params.id === undefined) return { bundle: null, bundles: (await s.bundles.list()).list }
  return { bundle: await readById(params.id, '套餐不存在', (id) => s.bundles.detail(id, null)), bundles: [] }
}

export function meta({ loaderData }: Route.MetaArgs) {
  const b = loaderData?.bundle
  if (b)
    return [
      { title: `${b.title} - 课程套餐 - 自学` },
      { name: 'description', content: `${b.subtitle} 共 ${b.course_count} 门课程，套餐价 ${yuan(b.price_fen)}。` },
    ]
  return [{ title: '为你推荐 - 自学' }, { name: 'description', content: '精选课程套餐和为你挑选的课程。' }]
}

type Bundle = NonNullable<Awaited<ReturnType<typeof loader>>['bundle']>
type BundleCard = Awaited<ReturnType<typeof loader>>['bundles'][number]

function Covers({ bundle }: { bundle: Pick<BundleCard, 'cover' | 'covers'> }) {
  if (bundle.cover)
    return <CoverImage className={styles.cover} src={bundle.cover} sizes="(min-width: 500px) 500px, 100vw" />
  return (
    <div className={styles.covers} aria-hidden="true">
      {bundle.covers.map((src) => (
        <CoverImage loading="lazy" key={src} src={src} sizes="(min-width: 500px) 170px, 34vw" />
      ))}
    </div>
  )
}

function PriceLine({ bundle }: { bundle: Pick<BundleCard, 'price_fen' | 'list_price_fen'> }) {
  const saved = bundle.list_price_fen - bundle.price_fen
  return (
    <div className={styles.priceLine}>
      <span className={checkout.bigPrice}>{yuan(bundle.price_fen)}</span>
      {saved > 0 ? (
        <>
          <s className={checkout.muted}>单买 {yuan(bundle.list_price_fen)}</s>
          <span className={styles.save}>省 {yuan(saved)}</span>
        </>
      ) : null}
    </div>
  )
}

/** The bundles on sale, then courses for the member (GET /foryou: from what they watched and favourited). */
function BundleIndex({ bundles }: { bundles: BundleCard[] }) {
  const picks = useApiGet<{ list: CourseCard[] }>('/foryou', { query: { limit: 10 } }).data?.list

  return (
    <main className={checkout.page}>
      <NavBar title="为你推荐" backTo="/" />
      <div className={checkout.body}>
        <h2 className={styles.sectionTitle}>课程套餐</h2>
        {bundles.length === 0 ? (
          <Empty message="暂时没有在售的套餐" />
        ) : (
          <ul className={styles.bundleList}>
            {bundles.map((b) => (
              <li key={b.id}>
                <Link to={`/foryou/${b.id}`} className={styles.bundleCard} prefetch="intent">
                  <Covers bundle={b} />
                  <p className={styles.title}>{b.title}</p>
                  <p className={styles.subtitle}>
                    {b.course_count} 门课程 · {b.subtitle}
                  </p>
                  <PriceLine bundle={b} />
                </Link>
              </li>
            ))}
          </ul>
        )}
        {picks && picks.length > 0 ? (
          <>
            <h2 className={styles.sectionTitle}>为你挑选的课程</h2>
            <section className={checkout.card}>
              {picks.map((c) => (
                <CourseRow key={c.id} course={c} compact />
              ))}
            </section>
          </>
        ) : null}
      </div>
    </main>
  )
}

/** One bundle: what it holds, what this member would pay, and the checkout. */
function BundlePage({ initial }: { initial: Bundle }) {
  const hydrated = useHydrated()
  const { token } = useAuth()
  // The member's view (owned courses, their price): fetched again after sign-in.
  const bundle = useApiGet<Bundle>(`/foryou/bundles/${initial.id}`, { member: true }).data ?? initial

  const owned = bundle.courses.filter((c) => c.owned).length
  const allOwned = token !== null && bundle.pay_fen === null
  return (
    <main className={checkout.page}>
      <NavBar title="课程套餐" backTo="/foryou" />
      <section className={styles.hero} aria-label="套餐">
        <Covers bundle={bundle} />
        <h1 className={styles.title}>{bundle.title}</h1>
        {bundle.subtitle ? <p className={styles.subtitle}>{bundle.subtitle}</p> : null}
        <PriceLine bundle={bundle} />
      </section>
      <div className={checkout.body}>
        {bundle.intro ? (
          <section className={checkout.card}>
            <h2 className={checkout.cardTitle}>套餐介绍</h2>
            <p className={styles.intro}>{bundle.intro}</p>
          </section>
        ) : null}
        <section className={checkout.card} aria-label="套餐课程">
          <h2 className={checkout.cardTitle}>包含 {bundle.course_count} 门课程</h2>
          <ul>
            {bundle.courses.map((c) => (
              <li key={c.id} className={styles.courseItem}>
                <CourseRow course={c} compact />
                {c.owned ? <span className={styles.owned}>已拥有</span> : null}
              </li>
            ))}
          </ul>
        </section>
        {!bundle.on_sale && !allOwned ? <p className={styles.note}>该套餐已停售，可以单独购买其中的课程。</p> : null}
        {allOwned ? (
          <>
            <p className={styles.note}>套餐里的课程你都已拥有，直接去学习吧。</p>
            <div className={checkout.actions}>
              <Link to="/ke1" className={checkout.linkButton}>
                去学习
              </Link>
            </div>
          </>
        ) : null}
        {bundle.on_sale && hydrated && !token ? <LoginRequired reason="登录后即可购买套餐" /> : null}
        {bundle.on_sale && hydrated && token && bundle.pay_fen !== null ? (
          <>
            {owned > 0 ? (
              <p className={styles.note}>
                你已拥有其中 {owned} 门课程，本次只需为其余课程按比例支付 {yuan(bundle.pay_fen)}。
              </p>
            ) : null}
            <CheckoutPanel
              key={owned}
              previewPath="/foryou/pay/preview"
              query={{ id: bundle.id }}
              payPath="/foryou/pay"
              payBody={{ id: bundle.id }}
            />
          </>
        ) : null}
      </div>
    </main>
  )
}

export default function ForYou() {
  const { bundle, bundles } = useLoaderData<typeof loader>()
  useWechatShare(
    bundle
      ? { title: bundle.title, desc: `${bundle.subtitle} 共 ${bundle.course_count} 门课程。`, imgUrl: bundle.cover }
      : { title: '为你推荐 - 自学', desc: '精选课程套餐和为你挑选的课程。' },
  )
  return bundle ? <BundlePage key={bundle.id} initial={bundle} /> : <BundleIndex bundles={bundles} />
}

import { useCallback, useEffect, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { PayFooter, PriceLines, useAskLogin, usePayFlow } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, Loaded, Loading } from '#app/components/page-state/page-state.tsx'
import { RadioCards } from '#app/components/choices/choices.tsx'
import { Section } from '#app/components/section/section.tsx'
import { api } from '#app/lib/api.ts'
import { yuan, type Preview } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { z } from 'zod'
import type { VipCentreResponse } from '#server/modules/vip/vip.schema.ts'

export function meta() {
  return [{ title: '开通会员 - 自学' }]
}

type Centre = z.infer<typeof VipCentreResponse>['data']

/**
 * Buying VIP (/vipBuy?plan_id=, and /vip/d/{id} for one plan): the plans, the member's current expiry, points,
 * the payment method and the pay button (POST /api/pay/vip).
 */
export default function VipBuy() {
  const [params] = useSearchParams()
  const { id } = useParams()
  const wanted = Number(id ?? params.get('plan_id') ?? 0)
  const hydrated = useHydrated()
  const { token } = useAuth()
  useAskLogin(hydrated, token)

  const centre = useApiGet<Centre>('/v2/vip', { member: true, errorText: '会员方案加载失败' })
  // The plan the link asks for (or the first) until the member picks one.
  const [picked, setPicked] = useState<{ wanted: number; id: number } | null>(null)
  const plans = centre.data?.plans ?? []
  const planId = picked?.wanted === wanted ? picked.id : ((plans.find((p) => p.id === wanted) ?? plans[0])?.id ?? null)
  const [priced, setPriced] = useState<{ key: string; preview: Preview } | null>(null)
  const [usePoints, setUsePoints] = useState(false)
  const flow = usePayFlow()
  // A price for another plan or points choice is stale: show "计算价格…" until the new one arrives.
  const preview = priced?.key === `${planId}:${usePoints}` ? priced.preview : null

  useEffect(() => {
    if (!planId) return
    const controller = new AbortController()
    const key = `${planId}:${usePoints}`
    api
      .get<Preview>(
        '/pay/vip/preview',
        { plan_id: planId, points: usePoints ? 100_000_000 : 0 },
        { signal: controller.signal },
      )
      .then((p) => setPriced({ key, preview: p }))
      .catch(() => {})
    return () => controller.abort()
  }, [planId, usePoints])

  const { pay } = flow
  const onPay = useCallback(() => {
    if (planId && preview) void pay('/pay/vip', { plan_id: planId, points: preview.points })
  }, [pay, planId, preview])

  return (
    <main className={styles.page}>
      <NavBar title="开通会员" backTo="/vip" />
      <MemberOnly reason="登录后开通会员">
        <Loaded of={centre}>
          {({ plans, membership }) =>
            plans.length === 0 ? (
              <div className={styles.body}>
                <Empty message="暂时没有可开通的会员方案" />
                <Link to="/customer" className={styles.secondaryButton}>
                  联系客服
                </Link>
              </div>
            ) : (
              <div className={styles.body}>
                <section className={styles.card} aria-label="我的会员">
                  {membership?.active ? (
                    <p className={styles.notice}>
                      你的会员有效期至 {formatTime(membership.expires_at)}，续费后在此基础上顺延。
                    </p>
                  ) : membership ? (
                    <p className={styles.notice}>
                      你的会员已于 {formatTime(membership.expires_at)} 到期，开通后立即生效。
                    </p>
                  ) : (
                    <p className={styles.notice}>开通后，标有“VIP 免费”的课程在有效期内都可以免费学习。</p>
                  )}
                </section>
                <Section id="plans-title" title="选择方案" className={styles.card} titleClassName={styles.cardTitle}>
                  <RadioCards
                    items={plans}
                    chosen={planId}
                    onChoose={(id) => setPicked({ wanted, id })}
                    labelledBy="plans-title"
                    className={styles.plans}
                    itemClass={(isChosen) => `${styles.plan} ${isChosen ? styles.planActive : ''}`}
                  >
                    {(p) => (
                      <>
                        <strong>
                          {p.name}
                          {p.badge ? <span className={styles.muted}> · {p.badge}</span> : null}
                        </strong>
                        <span className={styles.price}>{yuan(p.price_fen)}</span>
                        {p.original_price_fen && p.original_price_fen > p.price_fen ? (
                          <s className={styles.muted}>{yuan(p.original_price_fen)}</s>
                        ) : null}
                        <span className={styles.muted}>{p.description || `${p.days} 天有效`}</span>
                      </>
                    )}
                  </RadioCards>
                </Section>
                {preview ? (
                  <>
                    <PriceLines preview={preview} usePoints={usePoints} onPoints={setUsePoints} />
                    <PayFooter flow={flow} amountFen={preview.amount_fen} onPay={onPay} agreement="vip" />
                  </>
                ) : (
                  <Loading label="计算价格…" />
                )}
              </div>
            )
          }
        </Loaded>
      </MemberOnly>
    </main>
  )
}

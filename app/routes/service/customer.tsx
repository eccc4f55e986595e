import type { ReactNode } from 'react'
import { useLocation, type MetaArgs } from 'react-router'
import { MessageScreen } from '#app/components/message-screen/message-screen.tsx'
import { openExternal } from '#app/components/service-button/service-button.tsx'
import { useClientConfig, useServiceContact } from '#app/lib/client-config.ts'
import message from '#app/components/message-screen/message-screen.module.css'
import styles from './customer.module.css'

interface Variant {
  title: string
  lead: string
  /** What this variant adds beyond the chat link, not built yet (QR codes come from GET /contact/qrcode). */
  later?: string
}

const variants: Record<string, Variant> = {
  customer: { title: '联系客服', lead: '课程、账号、订单有任何问题，都可以找在线客服。' },
  customerb: { title: '商务合作', lead: '机构采购、课程合作等商务事宜，请通过在线客服联系我们，并说明来意。' },
  customerg: {
    title: '加入学习群',
    lead: '和同学一起学习、交流作业。',
    later: '学习群二维码即将上线，现在可以联系在线客服拉你进群。',
  },
  customert: {
    title: '联系老师',
    lead: '学习中遇到问题，可以请教课程老师。',
    later: '老师的联系二维码即将上线，现在可以先联系在线客服转接。',
  },
  'customerg/user': {
    title: '我的学习群',
    lead: '你所在课程的学习群。',
    later: '学习群二维码即将上线，现在可以联系在线客服拉你进群。',
  },
  dmmhcwcus: {
    title: '专属客服',
    lead: '你的专属客服会为你解答课程和学习的问题。',
    later: '专属客服二维码即将上线，现在可以先联系在线客服。',
  },
}

/** Which customer-service page a path is: /customer, /customerB, /customerG, /customerT, /customerG/user, /dmmHcWCus/{id}. */
export function customerVariant(pathname: string): Variant {
  const parts = pathname
    .split('/')
    .filter(Boolean)
    .map((p) => p.toLowerCase())
  const key = parts[0] === 'customerg' && parts[1] === 'user' ? 'customerg/user' : (parts[0] ?? 'customer')
  return variants[key] ?? variants.customer!
}

export function meta({ location }: MetaArgs) {
  return [{ title: `${customerVariant(location.pathname).title} - 自学` }]
}

/** A link to an outside chat: in place inside WeChat, in a new tab elsewhere (openExternal). */
function ExternalLink({ url, className, children }: { url: string; className?: string; children: ReactNode }) {
  return (
    <a
      href={url}
      className={className}
      rel="noopener noreferrer"
      onClick={(e) => (e.preventDefault(), openExternal(url))}
    >
      {children}
    </a>
  )
}

/** Customer service (routes.md): the configured service chat and consult links, real today. */
export default function Customer() {
  const { pathname } = useLocation()
  const variant = customerVariant(pathname)
  const client = useClientConfig()
  const contact = useServiceContact()
  return (
    <MessageScreen title={variant.title}>
      <svg className={styles.art} viewBox="0 0 96 96" aria-hidden="true">
        <circle cx="48" cy="48" r="44" fill="var(--zx-color-primary-light)" />
        <path
          d="M26 50v-5a22 22 0 0 1 44 0v5M26 50h6v14h-6a3 3 0 0 1-3-3v-8a3 3 0 0 1 3-3Zm44 0h-6v14h6a3 3 0 0 0 3-3v-8a3 3 0 0 0-3-3ZM64 64c0 5-5 8-12 8"
          fill="none"
          stroke="var(--zx-color-primary)"
          strokeWidth="4"
          strokeLinecap="round"
        />
      </svg>
      <h2 className="zx-title">{variant.title}</h2>
      <p className={message.text}>{variant.lead}</p>
      {variant.later ? <p className={styles.later}>{variant.later}</p> : null}
      {client ? (
        <div className={message.actions}>
          <ExternalLink url={client.serviceUrl} className={`${message.primary} ${styles.tall}`}>
            在线客服
          </ExternalLink>
          <ExternalLink url={client.consultUrl} className={styles.outlined}>
            课程咨询
          </ExternalLink>
        </div>
      ) : null}
      {contact?.qrImage ? (
        <figure className={styles.qr}>
          <img src={contact.qrImage} alt="客服企业微信二维码" width={160} height={160} />
          <figcaption className={styles.note}>长按识别二维码，添加客服企业微信</figcaption>
        </figure>
      ) : null}
      {contact?.hours || contact?.phone ? (
        <p className={styles.hours} data-testid="service-hours">
          {contact.hours ? <span>服务时间：{contact.hours}</span> : null}
          {contact.phone ? (
            <span>
              客服电话：<a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>
            </span>
          ) : null}
        </p>
      ) : null}
      <p className={styles.note}>在线客服由企业微信提供，打开后直接发送消息即可。</p>
    </MessageScreen>
  )
}

import { useLocation, type MetaArgs } from 'react-router'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import styles from './agreement.module.css'

interface Doc {
  title: string
  sections: [string, string[]][]
}

/** The user agreement and the privacy policy (issue 10 §5), written for what 自学 actually does and keeps. */
const DOCS: Record<'user' | 'privacy', Doc> = {
  user: {
    title: '用户协议',
    sections: [
      [
        '一、服务内容',
        ['自学提供在线自学课程：浏览和搜索课程、观看视频、记笔记、收藏、评论，以及购买课程、课程套餐和 VIP 会员。'],
      ],
      [
        '二、账号',
        [
          '你可以用手机号和短信验证码登录，或在微信内用微信授权登录。一个手机号对应一个账号；请妥善保管手机和微信，不要把验证码告诉他人。',
        ],
      ],
      [
        '三、购买与退款',
        [
          '价格以下单页显示为准，以人民币计价，通过微信支付或支付宝付款。购买后在有效期内可观看对应课程；VIP 会员在有效期内可观看会员免费课程。',
          '购买 7 天内且观看进度未超过 20% 的课程可申请退款，退款原路返回；已退款课程的观看权限随之取消。',
        ],
      ],
      [
        '四、使用规范',
        [
          '课程视频仅供你本人学习，不得录制、下载、转售或公开传播。评论请友善，不得发布违法、侵权、广告或骚扰内容；违规内容会被隐藏或删除。',
        ],
      ],
      [
        '五、注销',
        ['你可以随时在「我的 → 导出数据与注销账号」导出你的数据或注销账号（需短信验证），处理方式见《隐私政策》。'],
      ],
      ['六、联系我们', ['对本协议或服务有疑问，请通过页面右下角的「客服」联系我们。']],
    ],
  },
  privacy: {
    title: '隐私政策',
    sections: [
      [
        '一、我们收集哪些信息',
        [
          '手机号：用于登录、找回账号和发送验证码。',
          '微信 openid 和 unionid（微信登录或在微信内使用时）：用于识别同一位学员、在微信内完成微信支付；昵称和头像仅在你授权后使用。',
          '学习记录：你观看了哪些课程和课时、看到第几秒、笔记、收藏和评论，用于续播、显示学习进度和推荐课程。',
          '支付记录：订单号、金额、支付方式、支付和退款时间，用于开通课程、售后和依法记账。我们不保存银行卡或支付账户信息。',
          '访问信息：IP 地址、推广来源参数（sp）和访问的页面，用于防止刷验证码等滥用，以及统计推广效果。',
        ],
      ],
      ['二、我们如何使用', ['仅用于上述目的。我们不出售你的个人信息，不用于与课程学习无关的营销。']],
      [
        '三、保存多久',
        [
          '账号信息、学习记录保存到你注销账号为止。短信验证码 5 分钟后失效，登录失败记录定期清理。',
          '订单和支付记录依《中华人民共和国电子商务法》保存不少于三年；注销后这些记录会去除你的手机号、昵称、头像和微信标识，只保留交易本身。',
        ],
      ],
      [
        '四、你的权利',
        [
          '你可以随时在「我的 → 导出数据与注销账号」自助操作：输入发到你手机的短信验证码后，立即下载一份包含我们保存的你全部信息的 JSON 文件（资料、订单、已购课程、学习进度、评论、积分、登录记录），或立即注销账号。',
          '注销后：手机号、微信标识、昵称、头像、学习记录、笔记、收藏、关注、评论和点赞被删除，所有登录状态立即失效；订单、支付和退款记录及积分明细按上条去标识保存。只绑定了微信的账号，请先绑定手机号以接收验证码。',
        ],
      ],
      [
        '五、与第三方',
        [
          '短信由短信服务商发送（仅手机号和验证码）；支付由微信支付、支付宝处理（仅订单号和金额）；微信登录由微信提供授权。',
        ],
      ],
      [
        '六、联系我们',
        ['对个人信息处理有疑问或投诉，请通过页面右下角的「客服」联系我们，我们会在 15 个工作日内答复。'],
      ],
    ],
  },
}

function docOf(pathname: string): Doc {
  return pathname.toLowerCase().endsWith('/privacy') ? DOCS.privacy : DOCS.user
}

export function meta({ location }: MetaArgs) {
  return [{ title: `${docOf(location.pathname).title} - 自学` }]
}

/** /agreement/user and /agreement/privacy: the documents a learner agrees to at sign-in. */
export default function Agreement() {
  const doc = docOf(useLocation().pathname)
  return (
    <main className={styles.page}>
      <NavBar title={doc.title} backTo="/mine" />
      <article className={styles.body}>
        <h1 className={styles.title}>自学{doc.title}</h1>
        <p className={styles.updated}>更新日期：2026 年 11 月 25 日</p>
        {doc.sections.map(([heading, paragraphs]) => (
          <section key={heading}>
            <h2 className={styles.heading}>{heading}</h2>
            {paragraphs.map((p) => (
              <p key={p} className={styles.paragraph}>
                {p}
              </p>
            ))}
          </section>
        ))}
      </article>
    </main>
  )
}

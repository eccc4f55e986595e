import { useLoaderData, useLocation } from 'react-router'
import type { Route } from './+types/shop-page'
import { isAppNotFound, parseId } from '#app/components/course-data/catalogue-loader.server.ts'
import { services } from '#app/lib/services-context.ts'
import { ExchangeShops as shops } from '#shared/api/exchange-shops.ts'
import { ExchangeShops, type ExchangeShop } from '#shared/exchange-platforms.ts'
import { ExchangeScreen, type ExchangePlatform } from './exchange-screen.tsx'

/** What each shop's /data/* screen says: where its order number is (a sentence and a picture), what to paste. */
const screens: Record<ExchangeShop, Omit<ExchangePlatform, 'shop'> & { about: string }> = {
  douyin: {
    title: '抖音订单兑换课程',
    about: '在抖音团购或抖店买了自学的课程？粘贴订单号或券码，立即开通课程。',
    guide:
      '打开抖音，点“我” → 右上角“☰” → “我的订单”，进入订单详情，长按复制团购券码或订单编号（整段分享文字也可以），粘贴到下面。',
    picture: { src: '/exchange/douyin-order.svg', alt: '抖音“我的订单”里的团购券码和订单编号' },
    placeholder: '粘贴券码、订单编号或分享文字',
    label: '订单号或券码',
  },
  kuaishou: {
    title: '快手订单兑换课程',
    about: '在快手小店买了自学的课程？粘贴订单号，立即开通课程。',
    guide: '打开快手，点“我” → “我的订单”，进入订单详情，点订单编号旁的“复制”（整段分享文字也可以），粘贴到下面。',
    picture: { src: '/exchange/kuaishou-order.svg', alt: '快手“我的订单”里订单详情的订单编号' },
    placeholder: '粘贴快手订单编号',
    label: '订单号',
  },
  xiaohongshu: {
    title: '小红书订单兑换课程',
    about: '在小红书买了自学的课程？粘贴订单号，立即开通课程。',
    guide: '打开小红书，点“我” → “全部订单”，进入订单详情，复制以 P 开头的订单号，粘贴到下面。',
    picture: { src: '/exchange/xiaohongshu-order.svg', alt: '小红书“全部订单”里订单详情的订单号' },
    placeholder: '粘贴小红书订单号（P 开头）',
    label: '订单号',
  },
  wechat_shop: {
    title: '微信小店订单兑换课程',
    about: '在微信小店买了自学的课程？粘贴订单号，立即开通课程。',
    guide: '在微信点“我” → “订单与卡包” → “小店订单”，进入订单详情，复制订单号，粘贴到下面。',
    picture: { src: '/exchange/wechat-shop-order.svg', alt: '微信“订单与卡包”里小店订单详情的订单号' },
    placeholder: '粘贴微信小店订单号',
    label: '订单号',
  },
}

/** The shop whose /data/* page this is (the route table mounts this module on each shop's page). */
function shopAt(pathname: string): ExchangeShop {
  const found = (Object.keys(ExchangeShops) as ExchangeShop[]).find((s) => ExchangeShops[s].page === pathname)
  return found ?? 'douyin'
}

/**
 * `?course_id=`: the course a landing page sent the buyer to exchange (/course/ks/{id}), shown above the form; an
 * unknown course is left out.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const id = parseId(new URL(request.url).searchParams.get('course_id'))
  if (id === null) return { course: null }
  try {
    const c = await services(context).catalogue.courseDetail(id)
    return { course: { id: c.id, title: c.title, cover: c.cover } }
  } catch (error) {
    if (isAppNotFound(error)) return { course: null }
    throw error
  }
}

export function meta({ location }: { location: { pathname: string } }) {
  const screen = screens[shopAt(location.pathname)]
  return [{ title: `${screen.title} - 自学` }, { name: 'description', content: screen.about }]
}

/** /data/tt, /data/ks, /data/xhs, /data/wechatShop: exchange an order bought on that shop for its courses. */
export default function ShopExchange() {
  const shop = shopAt(useLocation().pathname)
  const { course } = useLoaderData<typeof loader>()
  return (
    <ExchangeScreen
      key={shop}
      platform={{ ...screens[shop], shop: shops.find((s) => s.key === shop)! }}
      course={course}
    />
  )
}

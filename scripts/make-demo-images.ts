// Draws the demo catalogue's images (course covers, teacher avatars, banners, category icons, the overlay image)
// as SVG compositions and encodes them to WebP with sharp. The outputs are committed under public/demo/, so this
// only runs again when the demo content changes: `node scripts/make-demo-images.ts`.
// Needs a CJK font that fontconfig finds (Debian: fonts-noto-cjk).
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { runCommand } from '#server/cli.ts'
import {
  demoImage,
  seedBanners,
  seedCategories,
  seedCourses,
  seedTeachers,
  type SeedCourse,
} from '#server/db/seed-data.ts'

const root = path.resolve(import.meta.dirname, '..')
const publicDir = path.join(root, 'public')
const FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', sans-serif"

const typeLabel: Record<SeedCourse['type'], string> = {
  series: '系列课',
  single: '单课',
  live: '直播课',
  system: '系统班',
}

function esc(text: string) {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/** Rough advance width in em: CJK glyphs are square, Latin letters and digits about half as wide. */
function emWidth(text: string) {
  let w = 0
  for (const ch of text) {
    if (ch === ' ') w += 0.3
    else if (ch.charCodeAt(0) < 0x100) w += /[A-Z0-9]/.test(ch) ? 0.64 : 0.55
    else w += 1
  }
  return w
}

/**
 * Splits a title into at most two lines at a token boundary (Latin words stay whole), balancing the two lines so
 * no single character is left alone on the second one. Returns null when it does not fit in two lines.
 */
function wrap(text: string, fontSize: number, maxWidth: number): string[] | null {
  if (emWidth(text) * fontSize <= maxWidth) return [text]
  // A title with a colon reads best broken right after it.
  const colon = text.indexOf('：')
  if (colon > 0) {
    const parts = [text.slice(0, colon + 1), text.slice(colon + 1).trim()]
    if (parts.every((p) => emWidth(p) * fontSize <= maxWidth)) return parts
  }
  const tokens = text.match(/[A-Za-z0-9.+#/-]+|\s+|./gu) ?? []
  let best: string[] | null = null
  let bestWidth = Infinity
  for (let i = 1; i < tokens.length; i++) {
    const first = tokens.slice(0, i).join('').trim()
    const second = tokens.slice(i).join('').trim()
    if (/^[：，、。！？）]/.test(second)) continue
    const widest = Math.max(emWidth(first), emWidth(second)) * fontSize
    if (widest <= maxWidth && widest < bestWidth && emWidth(first) >= emWidth(second)) {
      best = [first, second]
      bestWidth = widest
    }
  }
  return best
}

function gradient(id: string, [a, b]: [string, string], vertical = false) {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${vertical ? 0 : 1}" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>`
}

/** Simple deterministic decoration so covers of one area look related but not identical. */
function decorations(seed: number, width: number, height: number) {
  const variant = seed % 3
  if (variant === 0) {
    return `<circle cx="${width * 0.88}" cy="${height * 0.1}" r="${height * 0.5}" fill="#fff" opacity="0.12"/>
      <circle cx="${width * 0.95}" cy="${height * 0.92}" r="${height * 0.22}" fill="#fff" opacity="0.10"/>`
  }
  if (variant === 1) {
    return `<rect x="${width * 0.62}" y="${-height * 0.2}" width="${height * 0.9}" height="${height * 0.9}" rx="48" fill="#fff" opacity="0.10" transform="rotate(18 ${width * 0.8} ${height * 0.25})"/>
      <circle cx="${width * 0.9}" cy="${height * 0.85}" r="${height * 0.16}" fill="none" stroke="#fff" stroke-width="10" opacity="0.16"/>`
  }
  const dots: string[] = []
  for (let x = 0; x < 6; x++)
    for (let y = 0; y < 4; y++)
      dots.push(
        `<circle cx="${width * 0.66 + x * 30}" cy="${height * 0.14 + y * 30}" r="4" fill="#fff" opacity="0.22"/>`,
      )
  return `<path d="M${width * 0.55} ${height} L${width} ${height * 0.35} L${width} ${height} Z" fill="#fff" opacity="0.10"/>${dots.join('')}`
}

function courseCover(course: SeedCourse, index: number) {
  const area = seedCategories.find((c) => c.children.some((s) => s.slug === course.category))!
  const sub = area.children.find((s) => s.slug === course.category)!
  const teacher = seedTeachers.find((t) => t.slug === course.teacher)!
  const palette = area.palettes[index % area.palettes.length]!
  const W = 640
  const H = 360
  let size = 52
  let lines = wrap(course.title, size, 552)
  while (!lines && size > 30) {
    size -= 4
    lines = wrap(course.title, size, 552)
  }
  if (!lines) throw new Error(`title too long for a cover: ${course.title}`)
  const titleTop = lines.length === 1 ? 178 : 148
  const badge = `${sub.name} · ${typeLabel[course.type]}`
  const badgeWidth = emWidth(badge) * 22 + 36
  const titleSvg = lines
    .map(
      (l, i) =>
        `<text x="44" y="${titleTop + i * (size + 12)}" font-size="${size}" font-weight="700" fill="#fff">${esc(l)}</text>`,
    )
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}">
  <defs>${gradient('bg', palette)}</defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  ${decorations(index, W, H)}
  <text x="${W - 28}" y="${H - 36}" text-anchor="end" font-size="${sub.label.length > 2 ? 110 : 150}" font-weight="900" fill="#fff" opacity="0.16">${esc(sub.label)}</text>
  <rect x="44" y="40" width="${badgeWidth}" height="40" rx="20" fill="#fff" opacity="0.22"/>
  <text x="62" y="68" font-size="22" fill="#fff">${esc(badge)}</text>
  ${titleSvg}
  <text x="44" y="${titleTop + (lines.length - 1) * (size + 12) + 50}" font-size="24" fill="#fff" opacity="0.9">${esc(course.subtitle)}</text>
  <circle cx="60" cy="${H - 46}" r="16" fill="#fff" opacity="0.9"/>
  <text x="60" y="${H - 39}" text-anchor="middle" font-size="18" font-weight="700" fill="${palette[0]}">${esc(teacher.name.slice(0, 1))}</text>
  <text x="86" y="${H - 38}" font-size="22" fill="#fff" opacity="0.95">${esc(teacher.name)} 主讲</text>
</svg>`
}

function teacherAvatar(name: string, colors: [string, string]) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200" font-family="${FONT}">
  <defs>${gradient('bg', colors)}</defs>
  <rect width="200" height="200" fill="url(#bg)"/>
  <circle cx="170" cy="30" r="60" fill="#fff" opacity="0.14"/>
  <circle cx="20" cy="190" r="44" fill="#fff" opacity="0.10"/>
  <text x="100" y="132" text-anchor="middle" font-size="92" font-weight="700" fill="#fff">${esc(name.slice(0, 1))}</text>
</svg>`
}

function banner(title: string, caption: string, colors: [string, string], index: number) {
  const W = 750
  const H = 320
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}">
  <defs>${gradient('bg', colors)}</defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  ${decorations(index, W, H)}
  <text x="52" y="138" font-size="50" font-weight="700" fill="#fff">${esc(title)}</text>
  <text x="52" y="192" font-size="28" fill="#fff" opacity="0.92">${esc(caption)}</text>
  <rect x="52" y="224" width="168" height="52" rx="26" fill="#fff"/>
  <text x="136" y="259" text-anchor="middle" font-size="24" font-weight="700" fill="${colors[0]}">立即查看 ›</text>
</svg>`
}

function categoryIcon(glyph: string, colors: [string, string]) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" font-family="${FONT}">
  <defs>${gradient('bg', colors)}</defs>
  <rect width="96" height="96" rx="28" fill="url(#bg)"/>
  <circle cx="80" cy="16" r="22" fill="#fff" opacity="0.18"/>
  <text x="48" y="64" text-anchor="middle" font-size="44" font-weight="700" fill="#fff">${esc(glyph)}</text>
</svg>`
}

function overlayImage() {
  const W = 560
  const H = 700
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}">
  <defs>${gradient('bg', ['#7b2cbf', '#f06595'], true)}</defs>
  <rect width="${W}" height="${H}" rx="32" fill="url(#bg)"/>
  <circle cx="470" cy="90" r="150" fill="#fff" opacity="0.12"/>
  <circle cx="80" cy="620" r="110" fill="#fff" opacity="0.10"/>
  <text x="280" y="150" text-anchor="middle" font-size="34" fill="#fff" opacity="0.92">绘画插画季</text>
  <text x="280" y="250" text-anchor="middle" font-size="76" font-weight="900" fill="#fff">新课上线</text>
  <text x="280" y="330" text-anchor="middle" font-size="32" fill="#fff">板绘 · 水彩 · 素描</text>
  <rect x="90" y="390" width="380" height="120" rx="24" fill="#fff" opacity="0.18"/>
  <text x="280" y="440" text-anchor="middle" font-size="30" fill="#fff">VIP 会员</text>
  <text x="280" y="486" text-anchor="middle" font-size="34" font-weight="700" fill="#fff">多门好课免费学</text>
  <rect x="130" y="570" width="300" height="72" rx="36" fill="#fff"/>
  <text x="280" y="617" text-anchor="middle" font-size="32" font-weight="700" fill="#c2255c">去看看</text>
</svg>`
}

async function write(url: string, svg: string, quality = 78) {
  const file = path.join(publicDir, url)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await sharp(Buffer.from(svg)).webp({ quality, effort: 6 }).toFile(file)
  return fs.statSync(file).size
}

async function main() {
  let total = 0
  let count = 0
  const add = (bytes: number) => {
    total += bytes
    count++
  }
  const perArea = new Map<string, number>()
  for (const course of seedCourses) {
    const area = seedCategories.find((c) => c.children.some((s) => s.slug === course.category))!.slug
    const n = perArea.get(area) ?? 0
    perArea.set(area, n + 1)
    add(await write(demoImage.course(course.slug), courseCover(course, n)))
  }
  for (const t of seedTeachers) add(await write(demoImage.teacher(t.slug), teacherAvatar(t.name, t.colors), 80))
  for (const [i, b] of seedBanners.entries())
    add(await write(demoImage.banner(b.slug), banner(b.title, b.caption, b.colors, i)))
  for (const c of seedCategories)
    add(await write(demoImage.category(c.slug), categoryIcon(c.glyph, c.palettes[0]!), 85))
  add(await write(demoImage.overlay('painting-season'), overlayImage()))
  console.log(`${count} images, ${(total / 1024).toFixed(0)} KB in public/demo/`)
}

runCommand('scripts/make-demo-images.ts', main)

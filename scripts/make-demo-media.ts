// `npm run media:demo`: makes the demo's playable clips with ffmpeg and writes them, already transcoded to
// encrypted HLS, to server/db/demo-media/ (committed; attachDemoMedia copies them into storage at seed time).
// Run it again only to change the clips; keep the folder under ~5 MB.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEMO_MEDIA_DIR, type DemoClip, type DemoManifest } from '#server/modules/media/demo-media.ts'
import { encodeHls, type Rung } from '#server/modules/media/transcode.ts'
import { runCommand } from '#server/cli.ts'

const ffmpeg = process.env.FFMPEG_PATH ?? 'ffmpeg'
const ffprobe = process.env.FFPROBE_PATH ?? 'ffprobe'
/** One small rendition: the demo needs to play, not to look sharp on a television. */
const ladder: Rung[] = [
  { name: '360p', shortSide: 360, profile: 'baseline', level: '3.0', videoKbps: 260, audioKbps: 48 },
]

const fonts = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
]
const font = fonts.find((f) => fs.existsSync(f))

interface Spec {
  name: string
  title: string
  caption: string
  seconds: number
  source: string
  tone: number
  use: DemoClip['use']
}

const specs: Spec[] = [
  // 36 s: long enough to leave at 0:20 and come back (the resume journey).
  {
    name: 'lesson-a',
    title: '免费课示例',
    caption: 'Zixue demo · free lesson',
    seconds: 36,
    source: 'testsrc2=size=640x360:rate=25',
    tone: 440,
    use: 'free',
  },
  {
    name: 'lesson-b',
    title: '试看课示例',
    caption: 'Zixue demo · preview',
    seconds: 20,
    source: 'smptebars=size=640x360:rate=25',
    tone: 523,
    use: 'preview',
  },
  {
    name: 'lesson-c',
    title: '会员课示例',
    caption: 'Zixue demo · members',
    seconds: 20,
    source: 'testsrc2=size=640x360:rate=25,hue=h=t*36',
    tone: 659,
    use: 'other',
  },
]

function overlay(spec: Spec) {
  if (!font) return ''
  const text = font.includes('CJK') ? `自学 · ${spec.title}` : spec.caption
  const box = 'fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=10'
  return (
    `,drawtext=fontfile=${font}:text='${text}':fontsize=30:x=(w-text_w)/2:y=36:${box}` +
    `,drawtext=fontfile=${font}:text='%{pts\\:hms}':fontsize=44:x=(w-text_w)/2:y=h-text_h-40:${box}`
  )
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-demo-media-'))
  try {
    fs.rmSync(DEMO_MEDIA_DIR, { recursive: true, force: true })
    fs.mkdirSync(DEMO_MEDIA_DIR, { recursive: true })
    const clips: DemoClip[] = []
    for (const spec of specs) {
      const source = path.join(work, `${spec.name}.mp4`)
      execFileSync(ffmpeg, [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `${spec.source}${overlay(spec)}`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${spec.tone}:sample_rate=44100`,
        '-t',
        String(spec.seconds),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        source,
      ])
      const clipWork = path.join(work, spec.name)
      fs.mkdirSync(clipWork)
      const encoded = await encodeHls(
        { ffmpegPath: ffmpeg, ffprobePath: ffprobe, preset: 'slow', workDir: work, ladder },
        source,
        clipWork,
        new AbortController().signal,
      )
      const target = path.join(DEMO_MEDIA_DIR, spec.name)
      fs.cpSync(encoded.outDir, path.join(target, 'hls'), { recursive: true })
      if (encoded.poster) fs.writeFileSync(path.join(target, 'poster.webp'), encoded.poster)
      clips.push({
        name: spec.name,
        title: spec.title,
        duration: Math.round(encoded.duration * 1000) / 1000,
        key: encoded.key.toString('hex'),
        renditions: encoded.renditions,
        use: spec.use,
      })
      console.log(`${spec.name}: ${encoded.duration.toFixed(1)} s`)
    }
    const manifest: DemoManifest = { clips }
    fs.writeFileSync(path.join(DEMO_MEDIA_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const bytes = Number(execFileSync('du', ['-sb', DEMO_MEDIA_DIR]).toString().split('\t')[0])
    console.log(
      `Wrote ${clips.length} clips to ${path.relative(process.cwd(), DEMO_MEDIA_DIR)} (${(bytes / 1024 / 1024).toFixed(2)} MB).`,
    )
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

runCommand('npm run media:demo', main)

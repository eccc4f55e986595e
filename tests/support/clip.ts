import { execFileSync } from 'node:child_process'

/** Writes a real H.264/AAC MP4 test clip of `seconds` (a test pattern and a tone) with ffmpeg. */
export function makeTestClip(file: string, seconds: number, size = '640x360') {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=15`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ])
}

import { spawn } from 'node:child_process'

export interface ProbeResult {
  /** Seconds; 0 when the container does not say. */
  duration: number
  video: { width: number; height: number; codec: string; rotation: number } | null
  hasAudio: boolean
}

/** ffmpeg or ffprobe is not installed (or not where FFMPEG_PATH / FFPROBE_PATH say). */
export class ToolUnavailable extends Error {}

interface RunOptions {
  signal?: AbortSignal
  timeoutMs?: number
  /** Each complete line of stdout (ffmpeg's `-progress pipe:1` output). */
  onStdoutLine?: (line: string) => void
}

/** Runs a tool to the end; rejects with its last stderr lines when it fails, is aborted or times out. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<{ stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted)
      return reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'))
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let stderr = ''
    let pending = ''
    let settled = false
    const finish = (err: Error | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (err) reject(err)
      else resolve({ stdout: Buffer.concat(out) })
    }
    const onAbort = () => {
      child.kill('SIGKILL')
      finish(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted'))
    }
    const timer = options.timeoutMs
      ? setTimeout(() => {
          child.kill('SIGKILL')
          finish(new Error(`${command} took longer than ${options.timeoutMs} ms`))
        }, options.timeoutMs)
      : undefined
    options.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout.on('data', (chunk: Buffer) => {
      if (!options.onStdoutLine) return void out.push(chunk)
      pending += chunk.toString('utf8')
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) options.onStdoutLine(line.trim())
    })
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the tail matters for an error message; ffmpeg can print a lot.
      stderr = (stderr + chunk.toString('utf8')).slice(-4000)
    })
    child.on('error', (err) => finish(new ToolUnavailable(`${command} could not be started: ${err.message}`)))
    child.on('close', (code, signal) => {
      if (code === 0) return finish(null)
      const tail = stderr.trim().split('\n').slice(-3).join(' | ')
      finish(new Error(`${command} exited with ${code ?? signal}${tail ? `: ${tail}` : ''}`))
    })
  })
}

interface FfprobeJson {
  format?: { duration?: string }
  streams?: {
    codec_type?: string
    codec_name?: string
    width?: number
    height?: number
    disposition?: { attached_pic?: number }
    tags?: { rotate?: string }
    side_data_list?: { rotation?: number }[]
  }[]
}

/** Reads a media file's duration and streams with ffprobe (headers only; bounded in time). */
export async function probe(ffprobePath: string, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  const { stdout } = await run(
    ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    {
      signal,
      timeoutMs: 60_000,
    },
  )
  const json = JSON.parse(stdout.toString('utf8')) as FfprobeJson
  const streams = json.streams ?? []
  // A cover image inside an audio file shows up as a video stream with attached_pic: that is not a video.
  const v = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1 && s.width && s.height)
  const rotation = Number(v?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? v?.tags?.rotate ?? 0)
  const duration = Number(json.format?.duration)
  return {
    duration: Number.isFinite(duration) && duration > 0 ? duration : 0,
    video: v
      ? {
          width: v.width!,
          height: v.height!,
          codec: v.codec_name ?? '',
          rotation: Number.isFinite(rotation) ? rotation : 0,
        }
      : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  }
}

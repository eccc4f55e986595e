import type { Config } from '@react-router/dev/config'

/** The bare React Router pages of bench/ssr-floor.ts; built into SSR_FLOOR_BUILD_DIR (bench/results by default). */
export default {
  appDirectory: 'app',
  buildDirectory: process.env.SSR_FLOOR_BUILD_DIR ?? '../results/ssr-floor-build',
  ssr: true,
} satisfies Config

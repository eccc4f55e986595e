import type { Config } from '@react-router/dev/config'

export default {
  appDirectory: 'app',
  // BUILD_DIR lets parallel test runs build side by side; the server reads the same variable (server/config.ts).
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  ssr: true,
} satisfies Config

import type { Config } from '@react-router/dev/config'

export default {
  appDirectory: 'app',
  // BUILD_DIR lets parallel test runs build side by side; the server reads the same variable (server/config.ts).
  // An empty BUILD_DIR counts as unset: the project root as the build directory would be emptied before the build.
  buildDirectory: process.env.BUILD_DIR || 'build',
  ssr: true,
} satisfies Config

import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [reactRouter()],
  // antd-mobile ships CSS imports inside its ES modules: bundle it for the server render too.
  ssr: { noExternal: ['antd-mobile'] },
  build: { target: 'es2020', assetsInlineLimit: 2048 },
})

import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [reactRouter()],
  // antd-mobile ships CSS imports inside its ES modules: bundle it for the server render too.
  ssr: { noExternal: ['antd-mobile'] },
  build: {
    target: 'es2020',
    assetsInlineLimit: 2048,
    rolldownOptions: {
      output: {
        // React Router in one chunk: the operator console (routes/admin, loaded lazily) uses parts of it too, and
        // without this its shared parts would be split out of the learner pages' chunks into extra files.
        codeSplitting: { groups: [{ name: 'react-router', test: /[\\/]node_modules[\\/]react-router[\\/]/ }] },
      },
    },
  },
})

import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

/** The bare pages: React Router's plugin and nothing else (no chunking rules, no CSS). */
export default defineConfig({ plugins: [reactRouter()] })

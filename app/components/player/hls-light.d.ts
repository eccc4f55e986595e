// hls.js ships types for its full build only; the light build (no subtitles, alternate audio, DRM or CMCD,
// which Zixue does not use) has the same API.
declare module 'hls.js/light' {
  export { default } from 'hls.js'
}

import type { FastifyInstance } from 'fastify'
import { jsSdkSignature } from './js-sdk.ts'

/**
 * The simulator's stand-in for WeChat's JS-SDK (jweixin-1.6.0.js), for the demo and the browser tests where
 * res.wx.qq.com is out of reach: `wx.config` has its signature checked against the ticket this simulator issued
 * (POST /jssdk/verify), `wx.ready`/`wx.error` follow, and the two share calls of JS-SDK 1.4+
 * (`updateAppMessageShareData`, `updateTimelineShareData`) succeed only when listed in `jsApiList` and record
 * the card in `window.__wxSim` for tests to read. The real SDK's other behaviour (menus, the share sheet itself)
 * is not imitated.
 */
export function registerJsSdkStandIn(app: FastifyInstance, opts: { appId: string; ticket: () => string | undefined }) {
  const hidden = { schema: { hide: true } }
  const prefix = app.prefix || ''

  app.post('/jssdk/verify', hidden, async (request) => {
    const b = (request.body ?? {}) as Record<string, unknown>
    const ticket = opts.ticket()
    const fields = [b.timestamp, b.nonceStr, b.signature, b.url]
    if (!ticket || b.appId !== opts.appId || fields.some((f) => f === undefined || f === '')) return { ok: false }
    const expected = jsSdkSignature({
      ticket,
      nonceStr: String(b.nonceStr),
      timestamp: Number(b.timestamp),
      url: String(b.url),
    })
    return { ok: expected === b.signature }
  })

  app.get('/jweixin.js', hidden, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(standInSource(`${prefix}/jssdk/verify`)),
  )
}

function standInSource(verifyPath: string) {
  return `(function () {
  var rec = (window.__wxSim = { config: null, verified: null, appMessage: null, timeline: null });
  var state = 'idle', cfg = null, readyFns = [], errorFns = [];
  function settle(ok, res) {
    state = ok ? 'ready' : 'error';
    (ok ? readyFns : errorFns).splice(0).forEach(function (f) { try { f(res); } catch (e) { setTimeout(function () { throw e; }); } });
  }
  function share(name, key) {
    return function (o) {
      o = o || {};
      if (state !== 'ready' || (cfg.jsApiList || []).indexOf(name) < 0) {
        if (o.fail) o.fail({ errMsg: name + ':permission denied' });
        return;
      }
      rec[key] = { title: o.title, desc: o.desc, link: o.link, imgUrl: o.imgUrl };
      if (o.success) o.success({ errMsg: name + ':ok' });
    };
  }
  window.wx = {
    config: function (c) {
      cfg = c || {}; rec.config = cfg;
      fetch(${JSON.stringify(verifyPath)}, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appId: cfg.appId, timestamp: cfg.timestamp, nonceStr: cfg.nonceStr,
          signature: cfg.signature, url: location.href.split('#')[0] })
      }).then(function (r) { return r.json(); }).then(function (b) {
        rec.verified = !!b.ok;
        settle(!!b.ok, { errMsg: b.ok ? 'config:ok' : 'config:invalid signature' });
      }, function () { settle(false, { errMsg: 'config:fail' }); });
    },
    ready: function (f) { if (state === 'ready') f(); else readyFns.push(f); },
    error: function (f) { if (state === 'error') f({ errMsg: 'config:fail' }); else errorFns.push(f); },
    updateAppMessageShareData: share('updateAppMessageShareData', 'appMessage'),
    updateTimelineShareData: share('updateTimelineShareData', 'timeline')
  };
})();
`
}

import { describe, expect, it } from 'vitest'
import { isHttpUrl, sanitizeOverlayHtml } from './overlay-html.ts'

describe('sanitizeOverlayHtml', () => {
  it.each([
    [
      'keeps the allowed formatting',
      '<p>新课<b>上线</b><strong>啦</strong><br><i>快</i><em>来</em><span>看</span></p>',
      '<p>新课<b>上线</b><strong>啦</strong><br /><i>快</i><em>来</em><span>看</span></p>',
    ],
    ['removes script tags with their content', '<p>hi</p><script>alert(1)</script>', '<p>hi</p>'],
    [
      'removes style and iframe elements',
      '<style>p{}</style><iframe src="https://x.test"></iframe><p>ok</p>',
      '<p>ok</p>',
    ],
    [
      'removes on* handlers',
      '<p onclick="alert(1)" onmouseover="x()">hi</p><img src="https://a.test/x.png" onerror="alert(1)">',
      '<p>hi</p><img src="https://a.test/x.png" />',
    ],
    ['removes style and class attributes', '<span style="position:fixed" class="x">a</span>', '<span>a</span>'],
    ['turns a javascript: link into plain text', '<a href="javascript:alert(1)">点我</a>', '<span>点我</span>'],
    ['turns an obfuscated javascript: link into plain text', '<a href=" JaVaScRiPt:alert(1)">x</a>', '<span>x</span>'],
    [
      'turns a data: link into plain text',
      '<a href="data:text/html,<script>alert(1)</script>">x</a>',
      '<span>x</span>',
    ],
    [
      'opens http(s) links safely in a new tab',
      '<a href="https://zixue.test/a" target="_self" rel="opener">课程</a>',
      '<a href="https://zixue.test/a" target="_blank" rel="noopener noreferrer">课程</a>',
    ],
    ['removes an image with a javascript: source', '<img src="javascript:alert(1)">', ''],
    ['removes an image with a protocol-relative source', '<img src="//evil.test/x.png">', ''],
    ['keeps an image on this site', '<img src="/demo/x.webp" alt="x">', '<img src="/demo/x.webp" alt="x" />'],
    ['drops unknown tags but keeps their text', '<div><h1>标题</h1><form><input value="x"></form></div>', '标题'],
    ['escapes text that looks like markup', '5 &lt; 6 &amp; <', '5 &lt; 6 &amp; &lt;'],
  ])('%s', (_name, input, output) => {
    expect(sanitizeOverlayHtml(input)).toBe(output)
  })
})

describe('isHttpUrl', () => {
  it.each([
    ['https://zixue.test/x', true],
    ['http://zixue.test', true],
    ['javascript:alert(1)', false],
    ['//zixue.test', false],
    ['/course/1001.html', false],
    [42, false],
  ])('%s → %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected)
  })
})

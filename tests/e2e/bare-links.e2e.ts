import { describe, expect, it } from 'vitest'
import { phone, skipOverlays } from './support/browser.ts'

// Course cards and lessons are bare <a> elements (app/components/bare-link/bare-link.tsx): the root's delegation
// must give them what React Router's <Link prefetch="intent"> gave, or every tap would reload the whole app.

describe('course cards and lessons as bare links', () => {
  it('navigate inside the app, prefetch on touch, and leave modified clicks to the browser', async () => {
    const { page, context } = await phone()
    await skipOverlays(context)
    await page.goto('/')
    await page.waitForLoadState('networkidle')
    // Survives a navigation inside the app, not a reload.
    await page.evaluate(() => ((window as unknown as { kept: string }).kept = 'same document'))
    const kept = () => page.evaluate(() => (window as unknown as { kept?: string }).kept)

    const card = page.locator('main a[href^="/course/"][data-bare-link]').first()
    const href = (await card.getAttribute('href'))!
    expect(href).toMatch(/^\/course\/\d+\.html$/)
    // A finger on the card prefetches its page (its data and its route's modules), as <Link prefetch="intent">.
    const prefetched = () =>
      page.evaluate(
        (path) =>
          [...document.querySelectorAll('link[rel="prefetch"]')].some((l) => l.getAttribute('href')?.startsWith(path)),
        href,
      )
    expect(await prefetched()).toBe(false)
    await card.dispatchEvent('touchstart')
    await expect.poll(prefetched).toBe(true)

    await card.tap()
    await page.waitForURL(`**${href}`)
    await expect.poll(() => page.getByRole('heading', { name: '课程目录' }).count()).toBe(1)
    expect(await kept()).toBe('same document')

    // A lesson of the course, then back twice: still the same document. Its number (counted across chapters) is
    // read out as part of the link.
    const lesson = page.locator('main a[href^="/v/"][data-bare-link]').first()
    expect(await page.locator('main a[href^="/v/"]').nth(3).ariaSnapshot()).toMatch(/^- link "4 ?\S/)
    const lessonHref = (await lesson.getAttribute('href'))!
    // Lessons are not prefetched (the player's loader signs the video's addresses): a touch adds no prefetch link.
    await lesson.dispatchEvent('touchstart')
    await page.waitForTimeout(300)
    expect(
      await page.evaluate(
        (path) =>
          [...document.querySelectorAll('link[rel="prefetch"]')].some((l) => l.getAttribute('href')?.startsWith(path)),
        lessonHref,
      ),
    ).toBe(false)
    await lesson.click()
    await page.waitForURL(`**${lessonHref}`)
    expect(await kept()).toBe('same document')
    await page.goBack()
    await page.waitForURL(`**${href}`)
    // The course page again before the next Back: React Router leaves an unhandled AbortError when a Back cancels
    // the navigation of the one before (remix-run/react-router#14203), which the page-error guard would report.
    await expect.poll(() => page.getByRole('heading', { name: '课程目录' }).count()).toBe(1)
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    await expect.poll(() => page.getByRole('heading', { name: '新课上架' }).isVisible()).toBe(true)
    expect(await kept()).toBe('same document')

    // A click with a modifier is the browser's (a new tab or window), not the app's: this page stays.
    const opened = context.waitForEvent('page')
    await card.click({ modifiers: ['Shift'] })
    const other = await opened
    await other.waitForLoadState()
    expect(new URL(other.url()).pathname).toBe(href)
    expect(new URL(page.url()).pathname).toBe('/')
    await context.close()
  })
})

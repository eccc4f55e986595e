import { Link } from 'react-router'
import type { SearchHit } from '#server/modules/catalogue/search.schema.ts'
import { CoursePrice } from '#app/components/course-card/course-price.tsx'
import { COURSE_TYPE_LABEL, courseHref, formatCount } from '#app/components/course-card/course-format.ts'
import { Highlighted } from './highlight.tsx'
import card from '#app/components/course-card/course-card.module.css'
import styles from './search-box.module.css'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * A search result: the course row (course-card's cover and title styles) with the searched words marked in its
 * title and teacher's name, and, when it was found by a tag or a lesson title, that text marked too. Marks are
 * elements around slices of the text (highlight.tsx), never HTML from the server.
 */
export function SearchResultRow({ hit, eager = false }: { hit: SearchHit; eager?: boolean }) {
  // Found by a tag or a lesson the card does not show: that text, with the words marked.
  const { tag, lesson } = hit.highlights
  const reason = hit.matched.includes('title')
    ? null
    : tag
      ? { label: '标签：', ...tag }
      : lesson
        ? { label: '课时：', ...lesson }
        : null
  return (
    <Link to={courseHref(hit.id)} className={styles.row} data-testid="search-result">
      <span className={card.rowCover}>
        <CoverImage src={hit.cover} sizes="128px" width={320} height={180} loading={eager ? 'eager' : 'lazy'} />
        {hit.type !== 'series' ? <span className={card.typeTag}>{COURSE_TYPE_LABEL[hit.type]}</span> : null}
      </span>
      <span className={card.rowBody}>
        <span className={card.title}>
          <Highlighted text={hit.title} ranges={hit.highlights.title} />
        </span>
        <span className={styles.meta}>
          {hit.teacher_name ? (
            <span>
              <Highlighted text={hit.teacher_name} ranges={hit.highlights.teacher_name} />
            </span>
          ) : null}
          <span>{`${formatCount(hit.student_count)}人学过`}</span>
          {hit.matched.length === 1 && hit.matched[0] === 'category' ? (
            <span className={styles.why}>分类匹配</span>
          ) : null}
        </span>
        {reason ? (
          <span className={styles.why} data-testid="search-result-reason">
            {reason.label}
            <Highlighted text={reason.text} ranges={reason.ranges} />
          </span>
        ) : null}
        <CoursePrice course={hit} />
      </span>
    </Link>
  )
}

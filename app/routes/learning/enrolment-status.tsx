import { Link } from 'react-router'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { z } from 'zod'
import type { ContactResponse, StatusResponse } from '#server/modules/tuition/tuition.schema.ts'
import styles from './study.module.css'

type Status = z.infer<typeof StatusResponse>['data']
type Contact = z.infer<typeof ContactResponse>['data']

/** What to do next for each enrolment status (issue 15): sign, pay, manage, or ask a consultant. */
function nextStep(s: Status): { to: string; text: string } | null {
  if (s.status === 'offered' && s.contract_id) return { to: `/contract/${s.contract_id}`, text: '签署合同' }
  if (s.next_payment && s.enrolment_id && s.status !== 'exited' && s.status !== 'paused')
    return { to: `/PayAmount?enrolment_id=${s.enrolment_id}`, text: '缴纳学费' }
  if (s.enrolment_id && ['paying', 'enrolled', 'paused'].includes(s.status))
    return { to: `/course/pause/${s.enrolment_id}`, text: '休学 / 退学' }
  return null
}

/** A system course's enrolment status for the member (GET /course/bs) and the consultation contact (/course/contact). */
export function EnrolmentStatus({ courseId }: { courseId: number }) {
  const status = useApiGet<Status>('/course/bs', { query: { id: courseId } }).data
  const contact = useApiGet<Contact>('/course/contact', { query: { id: courseId } }).data
  if (!status) return null
  const step = nextStep(status)
  return (
    <section className="zx-surfaceSection" aria-label="报名状态">
      <p className={styles.heroText}>
        报名状态：{status.label}
        {step ? (
          <>
            {' · '}
            <Link to={step.to} className={styles.continue}>
              {step.text}
            </Link>
          </>
        ) : null}
      </p>
      {status.status === 'none' ? (
        <div className={styles.enrolLinks}>
          <Link to={`/form/1?course_id=${courseId}`} className={styles.secondaryLink}>
            报名咨询 ›
          </Link>
          {contact ? (
            <a href={contact.consult_url} className={styles.secondaryLink} target="_blank" rel="noreferrer">
              联系课程顾问 ›
            </a>
          ) : null}
        </div>
      ) : null}
      {status.status === 'none' && contact?.qr_image ? (
        <figure className={styles.consultQr}>
          <img src={contact.qr_image} alt="课程顾问企业微信二维码" width={120} height={120} loading="lazy" />
          <figcaption className={styles.heroText}>长按识别二维码，添加课程顾问企业微信</figcaption>
        </figure>
      ) : null}
    </section>
  )
}

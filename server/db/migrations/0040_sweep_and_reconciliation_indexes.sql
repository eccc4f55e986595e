-- Reads of the sweeps and the console that read a whole table at the scale seed (server/db/seed-scale/
-- query-plans.test.ts). IF NOT EXISTS: a large deployment may build these CONCURRENTLY beforehand (docs/deploy.md).
-- The daily reconciliation: a bill's payment that is not its order's transaction, known by its automatic refund.
CREATE INDEX IF NOT EXISTS "refunds_provider_txn_idx" ON "refunds" USING btree ("provider_txn_id");--> statement-breakpoint
-- The console's enrolments of a course, newest first.
CREATE INDEX IF NOT EXISTS "enrolments_course_idx" ON "enrolments" USING btree ("course_id","id");--> statement-breakpoint
-- The tuition sweep: pauses whose time is up.
CREATE INDEX IF NOT EXISTS "enrolments_pause_until_idx" ON "enrolments" USING btree ("pause_until") WHERE "enrolments"."state" = 'paused';

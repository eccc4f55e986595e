CREATE INDEX "study_progress_updated_idx" ON "study_progress" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "video_media_failed_idx" ON "video_media" USING btree ("updated_at") WHERE "video_media"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "members_created_idx" ON "members" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "members_nickname_trgm_idx" ON "members" USING gin ("nickname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "point_entries_created_brin" ON "point_entries" USING brin ("created_at");
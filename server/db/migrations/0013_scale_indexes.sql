CREATE INDEX "courses_sort_idx" ON "courses" USING btree ("sort" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "courses_created_idx" ON "courses" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "courses_students_idx" ON "courses" USING btree ("student_count","id");--> statement-breakpoint
CREATE INDEX "courses_price_idx" ON "courses" USING btree ("price_fen","id");--> statement-breakpoint
CREATE INDEX "courses_points_price_idx" ON "courses" USING btree ("points_price","id") WHERE "courses"."points_price" is not null;--> statement-breakpoint
CREATE INDEX "courses_published_category_idx" ON "courses" USING btree ("category_id") WHERE "courses"."status" = 'published';--> statement-breakpoint
CREATE INDEX "courses_published_teacher_idx" ON "courses" USING btree ("teacher_id") WHERE "courses"."status" = 'published';--> statement-breakpoint
CREATE INDEX "system_course_items_course_idx" ON "system_course_items" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "videos_chapter_idx" ON "videos" USING btree ("chapter_id","sort","id");--> statement-breakpoint
CREATE INDEX "favourites_member_idx" ON "favourites" USING btree ("member_id","id");
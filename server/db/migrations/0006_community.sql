CREATE TABLE "comment_likes" (
	"comment_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "comment_likes_comment_id_member_id_pk" PRIMARY KEY("comment_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"video_id" integer,
	"parent_id" integer,
	"reply_to_id" integer,
	"reply_to_member_id" integer,
	"thread_member_id" integer NOT NULL,
	"content" text NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'shown' NOT NULL,
	"type" text DEFAULT 'normal' NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"moderated_by" integer,
	"moderated_at" timestamp with time zone,
	CONSTRAINT "comments_like_count_ck" CHECK ("comments"."like_count" >= 0),
	CONSTRAINT "comments_content_ck" CHECK (char_length("comments"."content") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "favourites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "favourites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"course_id" integer,
	"video_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "favourites_one_target_ck" CHECK (num_nonnulls("favourites"."course_id", "favourites"."video_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"member_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "follows_member_id_teacher_id_pk" PRIMARY KEY("member_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "stat_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stat_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event" text NOT NULL,
	"member_id" integer,
	"position" text,
	"page" text,
	"course_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_reply_to_id_comments_id_fk" FOREIGN KEY ("reply_to_id") REFERENCES "public"."comments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_reply_to_member_id_members_id_fk" FOREIGN KEY ("reply_to_member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_thread_member_id_members_id_fk" FOREIGN KEY ("thread_member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_moderated_by_members_id_fk" FOREIGN KEY ("moderated_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_likes_member_idx" ON "comment_likes" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "comments_course_idx" ON "comments" USING btree ("course_id","id") WHERE "comments"."parent_id" is null and "comments"."video_id" is null;--> statement-breakpoint
CREATE INDEX "comments_video_idx" ON "comments" USING btree ("video_id","id") WHERE "comments"."parent_id" is null and "comments"."video_id" is not null;--> statement-breakpoint
CREATE INDEX "comments_parent_idx" ON "comments" USING btree ("parent_id","id") WHERE "comments"."parent_id" is not null;--> statement-breakpoint
CREATE INDEX "comments_pinned_idx" ON "comments" USING btree ("course_id") WHERE "comments"."type" <> 'normal';--> statement-breakpoint
CREATE INDEX "comments_member_idx" ON "comments" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "comments_member_time_idx" ON "comments" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "favourites_member_course_key" ON "favourites" USING btree ("member_id","course_id") WHERE "favourites"."course_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "favourites_member_video_key" ON "favourites" USING btree ("member_id","video_id") WHERE "favourites"."video_id" is not null;--> statement-breakpoint
CREATE INDEX "favourites_member_courses_idx" ON "favourites" USING btree ("member_id","id") WHERE "favourites"."course_id" is not null;--> statement-breakpoint
CREATE INDEX "favourites_member_videos_idx" ON "favourites" USING btree ("member_id","id") WHERE "favourites"."video_id" is not null;--> statement-breakpoint
CREATE INDEX "favourites_course_idx" ON "favourites" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "favourites_video_idx" ON "favourites" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "follows_teacher_idx" ON "follows" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "stat_events_created_brin" ON "stat_events" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "categories_name_trgm_idx" ON "categories" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teachers_name_trgm_idx" ON "teachers" USING gin ("name" gin_trgm_ops);
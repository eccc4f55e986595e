CREATE TABLE "player_popups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "player_popups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"video_id" integer,
	"course_id" integer,
	"at_second" integer NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"image_url" text,
	"link" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "player_popups_target" CHECK ("player_popups"."video_id" is not null or "player_popups"."course_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "popup_clicks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "popup_clicks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"popup_id" integer NOT NULL,
	"member_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_progress" (
	"member_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "study_progress_member_id_video_id_pk" PRIMARY KEY("member_id","video_id")
);
--> statement-breakpoint
CREATE TABLE "video_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"second" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "live_pull_url" text;--> statement-breakpoint
ALTER TABLE "player_popups" ADD CONSTRAINT "player_popups_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_popups" ADD CONSTRAINT "player_popups_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "popup_clicks" ADD CONSTRAINT "popup_clicks_popup_id_player_popups_id_fk" FOREIGN KEY ("popup_id") REFERENCES "public"."player_popups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "popup_clicks" ADD CONSTRAINT "popup_clicks_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_progress" ADD CONSTRAINT "study_progress_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_progress" ADD CONSTRAINT "study_progress_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_progress" ADD CONSTRAINT "study_progress_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_notes" ADD CONSTRAINT "video_notes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_notes" ADD CONSTRAINT "video_notes_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "player_popups_video_idx" ON "player_popups" USING btree ("video_id") WHERE "player_popups"."video_id" is not null;--> statement-breakpoint
CREATE INDEX "player_popups_course_idx" ON "player_popups" USING btree ("course_id") WHERE "player_popups"."course_id" is not null;--> statement-breakpoint
CREATE INDEX "popup_clicks_popup_idx" ON "popup_clicks" USING btree ("popup_id");--> statement-breakpoint
CREATE INDEX "study_progress_member_updated_idx" ON "study_progress" USING btree ("member_id","updated_at" DESC NULLS LAST,"video_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "study_progress_member_course_idx" ON "study_progress" USING btree ("member_id","course_id");--> statement-breakpoint
CREATE INDEX "video_notes_member_video_idx" ON "video_notes" USING btree ("member_id","video_id","second");
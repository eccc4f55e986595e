CREATE TABLE "member_merges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "member_merges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"survivor_id" integer NOT NULL,
	"absorbed_id" integer NOT NULL,
	"reason" text NOT NULL,
	"moved" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wechat_pay_openids" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"openid" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "merged_into_id" integer;--> statement-breakpoint
ALTER TABLE "member_merges" ADD CONSTRAINT "member_merges_survivor_id_members_id_fk" FOREIGN KEY ("survivor_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_merges" ADD CONSTRAINT "member_merges_absorbed_id_members_id_fk" FOREIGN KEY ("absorbed_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wechat_pay_openids" ADD CONSTRAINT "wechat_pay_openids_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_merges_absorbed_key" ON "member_merges" USING btree ("absorbed_id");--> statement-breakpoint
CREATE INDEX "member_merges_survivor_idx" ON "member_merges" USING btree ("survivor_id");--> statement-breakpoint
CREATE INDEX "wechat_pay_openids_expires_idx" ON "wechat_pay_openids" USING btree ("expires_at");
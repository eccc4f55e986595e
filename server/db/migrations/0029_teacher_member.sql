ALTER TABLE "teachers" ADD COLUMN "member_id" integer;--> statement-breakpoint
ALTER TABLE "teachers" ADD CONSTRAINT "teachers_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "teachers_member_idx" ON "teachers" USING btree ("member_id");
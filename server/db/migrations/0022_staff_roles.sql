CREATE TABLE "member_roles" (
	"member_id" integer NOT NULL,
	"role" text NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_roles_member_id_role_pk" PRIMARY KEY("member_id","role")
);
--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_granted_by_members_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_roles_role_idx" ON "member_roles" USING btree ("role");--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_role_check" CHECK ("role" in ('operator', 'finance', 'teacher', 'assistant', 'admin'));--> statement-breakpoint
-- Existing staff: admins keep admin; the old "staff" role (comment moderation, the staff profile view) becomes operator.
INSERT INTO "member_roles" ("member_id", "role") SELECT "id", CASE "role" WHEN 'admin' THEN 'admin' ELSE 'operator' END FROM "members" WHERE "role" IN ('staff', 'admin');--> statement-breakpoint
ALTER TABLE "members" DROP COLUMN "role";
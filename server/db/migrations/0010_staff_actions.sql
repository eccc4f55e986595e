CREATE TABLE "staff_actions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "staff_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"url" text NOT NULL,
	"params" jsonb,
	"body" jsonb,
	"status" smallint NOT NULL,
	"code" integer,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_actions" ADD CONSTRAINT "staff_actions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_actions_member_idx" ON "staff_actions" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "staff_actions_route_idx" ON "staff_actions" USING btree ("route","id");
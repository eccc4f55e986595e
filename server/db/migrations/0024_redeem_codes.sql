CREATE TABLE "redeem_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"course_ids" integer[] NOT NULL,
	"vip_days" integer,
	"code_count" integer NOT NULL,
	"uses_per_code" integer DEFAULT 1 NOT NULL,
	"per_member_limit" integer DEFAULT 1 NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "redeem_batches_grants_one" CHECK ((cardinality("redeem_batches"."course_ids") > 0) <> ("redeem_batches"."vip_days" is not null))
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" integer NOT NULL,
	"serial" integer NOT NULL,
	"code_hash" text NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "redeem_guesses" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redeem_uses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_uses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"course_ids" integer[] NOT NULL,
	"vip_days" integer,
	"used_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
ALTER TABLE "redeem_batches" ADD CONSTRAINT "redeem_batches_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_batch_id_redeem_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."redeem_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_uses" ADD CONSTRAINT "redeem_uses_code_id_redeem_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_uses" ADD CONSTRAINT "redeem_uses_batch_id_redeem_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."redeem_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_uses" ADD CONSTRAINT "redeem_uses_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_uses" ADD CONSTRAINT "redeem_uses_revoked_by_members_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_batches_created_idx" ON "redeem_batches" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_hash_key" ON "redeem_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_batch_serial_key" ON "redeem_codes" USING btree ("batch_id","serial");--> statement-breakpoint
CREATE INDEX "redeem_guesses_reset_at_idx" ON "redeem_guesses" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "redeem_uses_member_idx" ON "redeem_uses" USING btree ("member_id","used_at");--> statement-breakpoint
CREATE INDEX "redeem_uses_batch_member_idx" ON "redeem_uses" USING btree ("batch_id","member_id");--> statement-breakpoint
CREATE INDEX "redeem_uses_code_idx" ON "redeem_uses" USING btree ("code_id");
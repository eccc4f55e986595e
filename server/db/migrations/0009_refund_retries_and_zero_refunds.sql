ALTER TABLE "refunds" DROP CONSTRAINT "refunds_amount_ck";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "retried_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "retried_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_retried_by_members_id_fk" FOREIGN KEY ("retried_by") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_ck" CHECK ("refunds"."amount_fen" >= 0 and "refunds"."amount_fen" <= "refunds"."payment_fen" and ("refunds"."amount_fen" > 0 or "refunds"."provider" is null));
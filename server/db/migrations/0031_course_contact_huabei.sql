ALTER TABLE "courses" ADD COLUMN "consult_qr" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "consult_url" text;--> statement-breakpoint
ALTER TABLE "tuition_payments" ADD COLUMN "huabei_periods" integer;
ALTER TABLE "courses" ADD COLUMN "consult_qr" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "consult_url" text;
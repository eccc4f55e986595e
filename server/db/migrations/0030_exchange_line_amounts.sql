ALTER TABLE "exchange_records" ADD COLUMN "amount_fen" integer;--> statement-breakpoint
CREATE INDEX "exchange_records_granted_idx" ON "exchange_records" USING btree ("granted_at");
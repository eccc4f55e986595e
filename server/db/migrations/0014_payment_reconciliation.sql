CREATE TABLE "reconciliation_differences" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_differences_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" integer NOT NULL,
	"provider" text NOT NULL,
	"bill_date" date NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"order_no" text NOT NULL,
	"refund_no" text,
	"transaction_id" text,
	"our_fen" integer,
	"their_fen" integer,
	"our_state" text,
	"their_state" text,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"bill_date" date NOT NULL,
	"state" text NOT NULL,
	"bill_payments" integer DEFAULT 0 NOT NULL,
	"bill_refunds" integer DEFAULT 0 NOT NULL,
	"differences" integer DEFAULT 0 NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_differences_run_idx" ON "reconciliation_differences" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "reconciliation_differences_day_idx" ON "reconciliation_differences" USING btree ("bill_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_runs_day_key" ON "reconciliation_runs" USING btree ("provider","bill_date");--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("provider","paid_at") WHERE "orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "refunds_completed_idx" ON "refunds" USING btree ("provider","completed_at") WHERE "refunds"."state" = 'succeeded';
CREATE TABLE "contract_template_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_template_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"asks_id" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 100001 CACHE 1),
	"enrolment_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"template_version_id" integer NOT NULL,
	"filled_text" text,
	"real_name" text,
	"id_type" text,
	"id_number" text,
	"phone" text,
	"signature_key" text,
	"signed_at" timestamp with time zone,
	"client_ip" text,
	"user_agent" text,
	"sha256" text,
	"pdf_key" text,
	"refund_rule" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolment_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enrolment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enrolment_id" integer NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"reason" text NOT NULL,
	"actor" text NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enrolments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"template_version_id" integer,
	"lead_id" integer,
	"state" text NOT NULL,
	"started_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"pause_until" timestamp with time zone,
	"paused_days" integer DEFAULT 0 NOT NULL,
	"exit_refund_fen" integer,
	"exit_requested_at" timestamp with time zone,
	"exited_at" timestamp with time zone,
	"offered_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"form" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"course_id" integer,
	"interest" text DEFAULT '' NOT NULL,
	"contact_time" text DEFAULT '' NOT NULL,
	"sp" text,
	"page" text,
	"state" text DEFAULT 'new' NOT NULL,
	"day" date NOT NULL,
	"submissions" integer DEFAULT 1 NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "leads_form_ck" CHECK ("leads"."form" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "tuition_payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tuition_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enrolment_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"label" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"due_at" timestamp with time zone,
	"opens_access" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'due' NOT NULL,
	"order_no" text,
	"paid_at" timestamp with time zone,
	"refunded_fen" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tuition_payments_amount_ck" CHECK ("tuition_payments"."amount_fen" > 0 and "tuition_payments"."refunded_fen" between 0 and "tuition_payments"."amount_fen")
);
--> statement-breakpoint
CREATE TABLE "tuition_plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tuition_plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"total_fen" integer NOT NULL,
	"deposit_fen" integer DEFAULT 0 NOT NULL,
	"balance_due_days" integer DEFAULT 30 NOT NULL,
	"instalments" integer DEFAULT 1 NOT NULL,
	"contract_required" boolean DEFAULT true NOT NULL,
	"huabei_allowed" boolean DEFAULT false NOT NULL,
	"huabei_periods" integer[] DEFAULT '{}'::int[] NOT NULL,
	"huabei_fee_payer" text DEFAULT 'buyer' NOT NULL,
	"study_days" integer DEFAULT 365 NOT NULL,
	"max_pause_days" integer DEFAULT 90 NOT NULL,
	"exit_fee_fen" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tuition_plans_amounts_ck" CHECK ("tuition_plans"."total_fen" > 0 and "tuition_plans"."deposit_fen" >= 0 and "tuition_plans"."deposit_fen" < "tuition_plans"."total_fen" and "tuition_plans"."exit_fee_fen" >= 0
        and "tuition_plans"."instalments" between 1 and 36 and "tuition_plans"."study_days" > 0 and "tuition_plans"."max_pause_days" >= 0)
);
--> statement-breakpoint
ALTER TABLE "contract_template_versions" ADD CONSTRAINT "contract_template_versions_template_id_contract_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."contract_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_enrolment_id_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_template_version_id_contract_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."contract_template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_events" ADD CONSTRAINT "enrolment_events_enrolment_id_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_plan_id_tuition_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."tuition_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_template_version_id_contract_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."contract_template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_offered_by_members_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuition_payments" ADD CONSTRAINT "tuition_payments_enrolment_id_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."enrolments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuition_plans" ADD CONSTRAINT "tuition_plans_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_template_versions_key" ON "contract_template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_enrolment_key" ON "contracts" USING btree ("enrolment_id");--> statement-breakpoint
CREATE INDEX "contracts_member_idx" ON "contracts" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "enrolment_events_enrolment_idx" ON "enrolment_events" USING btree ("enrolment_id","id");--> statement-breakpoint
CREATE INDEX "enrolments_member_idx" ON "enrolments" USING btree ("member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolments_one_open_per_course" ON "enrolments" USING btree ("member_id","course_id") WHERE "enrolments"."state" <> 'exited';--> statement-breakpoint
CREATE INDEX "enrolments_state_idx" ON "enrolments" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_phone_day_key" ON "leads" USING btree ("phone","day");--> statement-breakpoint
CREATE INDEX "leads_state_idx" ON "leads" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tuition_payments_seq_key" ON "tuition_payments" USING btree ("enrolment_id","seq");--> statement-breakpoint
CREATE INDEX "tuition_payments_due_idx" ON "tuition_payments" USING btree ("due_at") WHERE "tuition_payments"."state" = 'due';--> statement-breakpoint
CREATE INDEX "tuition_plans_course_idx" ON "tuition_plans" USING btree ("course_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entitlements_tuition_key" ON "entitlements" USING btree ("source_ref","course_id") WHERE "entitlements"."source" = 'tuition';--> statement-breakpoint
-- A published contract template version and a signed contract never change (issue 15 §2): refused in the database.
CREATE FUNCTION "zixue_refuse_frozen_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'frozen row of % cannot change', TG_TABLE_NAME USING ERRCODE = 'check_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "contract_template_versions_frozen" BEFORE UPDATE ON "contract_template_versions"
  FOR EACH ROW WHEN (OLD."published_at" IS NOT NULL) EXECUTE FUNCTION "zixue_refuse_frozen_change"();--> statement-breakpoint
CREATE TRIGGER "contracts_frozen" BEFORE UPDATE ON "contracts"
  FOR EACH ROW WHEN (OLD."signed_at" IS NOT NULL) EXECUTE FUNCTION "zixue_refuse_frozen_change"();

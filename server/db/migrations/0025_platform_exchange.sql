CREATE TABLE "exchange_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exchange_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"platform" text NOT NULL,
	"order_id" text NOT NULL,
	"line_id" text NOT NULL,
	"sku_id" text NOT NULL,
	"product_name" text NOT NULL,
	"member_id" integer NOT NULL,
	"course_id" integer,
	"vip_days" integer,
	"redeem_ref" text,
	"status" text NOT NULL,
	"granted_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text
);
--> statement-breakpoint
CREATE TABLE "exchange_skus" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exchange_skus_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"platform" text NOT NULL,
	"sku_id" text NOT NULL,
	"product_name" text NOT NULL,
	"course_id" integer,
	"vip_days" integer,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exchange_skus_one_grant" CHECK (("exchange_skus"."course_id" is null) <> ("exchange_skus"."vip_days" is null))
);
--> statement-breakpoint
CREATE TABLE "platform_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "platform_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"platform" text NOT NULL,
	"order_id" text NOT NULL,
	"buyer_phone" text,
	"status" text NOT NULL,
	"lines" jsonb NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_pushes" (
	"platform" text NOT NULL,
	"msg_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "platform_pushes_platform_msg_id_pk" PRIMARY KEY("platform","msg_id")
);
--> statement-breakpoint
ALTER TABLE "exchange_records" ADD CONSTRAINT "exchange_records_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_records" ADD CONSTRAINT "exchange_records_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_skus" ADD CONSTRAINT "exchange_skus_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_records_line_key" ON "exchange_records" USING btree ("platform","order_id","line_id");--> statement-breakpoint
CREATE INDEX "exchange_records_member_idx" ON "exchange_records" USING btree ("member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_skus_platform_sku_key" ON "exchange_skus" USING btree ("platform","sku_id");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_orders_key" ON "platform_orders" USING btree ("platform","order_id");--> statement-breakpoint
CREATE INDEX "platform_orders_phone_idx" ON "platform_orders" USING btree ("buyer_phone","platform");
ALTER TABLE "alert_webhook_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_webhook_messages" ADD COLUMN "next_at" bigint;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "off_at" bigint;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "off_reason" text;
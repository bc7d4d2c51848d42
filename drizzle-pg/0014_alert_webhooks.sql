CREATE TABLE "alert_webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"hook" text NOT NULL,
	"message" text NOT NULL,
	"at" bigint NOT NULL,
	"status" integer,
	"ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_webhook_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"hook" text NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"claimed_at" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"org" text NOT NULL,
	"url" text NOT NULL,
	"events" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_webhook_attempts" ADD CONSTRAINT "alert_webhook_attempts_hook_alert_webhooks_id_fk" FOREIGN KEY ("hook") REFERENCES "public"."alert_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_webhook_messages" ADD CONSTRAINT "alert_webhook_messages_hook_alert_webhooks_id_fk" FOREIGN KEY ("hook") REFERENCES "public"."alert_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD CONSTRAINT "alert_webhooks_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_webhook_attempts_hook" ON "alert_webhook_attempts" USING btree ("hook","at");--> statement-breakpoint
CREATE INDEX "alert_webhook_messages_pending" ON "alert_webhook_messages" USING btree ("state","claimed_at");
CREATE TABLE "alert_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"org" text NOT NULL,
	"event" text NOT NULL,
	"app_id" text,
	"app_name" text,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"since" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"claimed_at" bigint,
	"sent_at" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "app_alert_states" (
	"app" text PRIMARY KEY NOT NULL,
	"down_since" bigint NOT NULL,
	"told_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_alerts" (
	"org" text PRIMARY KEY NOT NULL,
	"events_off" text DEFAULT '[]' NOT NULL,
	"recipients" text,
	"email" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD CONSTRAINT "alert_outbox_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_alert_states" ADD CONSTRAINT "app_alert_states_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_alerts" ADD CONSTRAINT "org_alerts_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_outbox_org_newest" ON "alert_outbox" USING btree ("org","created_at");--> statement-breakpoint
CREATE INDEX "alert_outbox_pending" ON "alert_outbox" USING btree ("state","claimed_at");
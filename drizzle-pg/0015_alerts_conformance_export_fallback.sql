CREATE TABLE "alert_marks" (
	"org" text NOT NULL,
	"event" text NOT NULL,
	"subject" text NOT NULL,
	"value" text NOT NULL,
	"since" bigint NOT NULL,
	CONSTRAINT "alert_marks_org_event_subject_pk" PRIMARY KEY("org","event","subject")
);
--> statement-breakpoint
CREATE TABLE "app_conformance" (
	"app" text PRIMARY KEY NOT NULL,
	"running_since" bigint,
	"result" text,
	"ran_at" bigint
);
--> statement-breakpoint
ALTER TABLE "alert_webhook_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_webhook_messages" ADD COLUMN "next_at" bigint;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "off_at" bigint;--> statement-breakpoint
ALTER TABLE "alert_webhooks" ADD COLUMN "off_reason" text;--> statement-breakpoint
ALTER TABLE "org_alerts" ADD COLUMN "hosts" text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE "org_settings" ADD COLUMN "export_fallback" text DEFAULT 'strict' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_marks" ADD CONSTRAINT "alert_marks_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_conformance" ADD CONSTRAINT "app_conformance_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
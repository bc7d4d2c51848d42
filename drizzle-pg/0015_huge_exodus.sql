CREATE TABLE "app_conformance" (
	"app" text PRIMARY KEY NOT NULL,
	"running_since" bigint,
	"result" text,
	"ran_at" bigint
);
--> statement-breakpoint
ALTER TABLE "app_conformance" ADD CONSTRAINT "app_conformance_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
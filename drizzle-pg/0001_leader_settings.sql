CREATE TABLE "app_settings" (
	"app" text PRIMARY KEY NOT NULL,
	"new_tools" text DEFAULT 'org' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_settings" (
	"app" text NOT NULL,
	"name" text NOT NULL,
	"setting" text NOT NULL,
	"set_by" text NOT NULL,
	"set_by_email" text NOT NULL,
	"set_at" bigint NOT NULL,
	CONSTRAINT "tool_settings_app_name_pk" PRIMARY KEY("app","name")
);
--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_settings" ADD CONSTRAINT "tool_settings_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
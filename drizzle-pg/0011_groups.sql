CREATE TABLE "app_access_groups" (
	"app" text NOT NULL,
	"group" text NOT NULL,
	CONSTRAINT "app_access_groups_app_group_pk" PRIMARY KEY("app","group")
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group" text NOT NULL,
	"member" text NOT NULL,
	"org" text NOT NULL,
	"person" text NOT NULL,
	CONSTRAINT "group_members_group_member_pk" PRIMARY KEY("group","member")
);
--> statement-breakpoint
CREATE TABLE "group_tool_settings" (
	"app" text NOT NULL,
	"group" text NOT NULL,
	"name" text NOT NULL,
	"setting" text NOT NULL,
	"set_by" text NOT NULL,
	"set_by_email" text NOT NULL,
	"set_at" bigint NOT NULL,
	CONSTRAINT "group_tool_settings_app_group_name_pk" PRIMARY KEY("app","group","name")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" text PRIMARY KEY NOT NULL,
	"org" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_settings" ADD COLUMN "access" text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "app_access_groups" ADD CONSTRAINT "app_access_groups_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_access_groups" ADD CONSTRAINT "app_access_groups_group_groups_id_fk" FOREIGN KEY ("group") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_groups_id_fk" FOREIGN KEY ("group") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_member_member_id_fk" FOREIGN KEY ("member") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_tool_settings" ADD CONSTRAINT "group_tool_settings_app_apps_id_fk" FOREIGN KEY ("app") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_tool_settings" ADD CONSTRAINT "group_tool_settings_group_groups_id_fk" FOREIGN KEY ("group") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_members_person" ON "group_members" USING btree ("org","person");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_org_name_key" ON "groups" USING btree ("org","name_key");--> statement-breakpoint
-- Generated from lib/db/versioned-tables.ts (versionTriggersMigration): every write to a listed table draws its organisation a new version.
CREATE OR REPLACE FUNCTION "org_versions_draw"(changed text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Null: the app is gone (a cascade from its removal, which drew a version itself).
  IF changed IS NOT NULL THEN
    INSERT INTO "org_versions" ("org", "version") VALUES (changed, gen_random_uuid()::text) ON CONFLICT ("org") DO UPDATE SET "version" = excluded."version";
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "org_versions_by_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"(NEW."slug"); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."slug" IS DISTINCT FROM NEW."slug") THEN PERFORM "org_versions_draw"(OLD."slug"); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "org_versions_by_org"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"(NEW."org"); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."org" IS DISTINCT FROM NEW."org") THEN PERFORM "org_versions_draw"(OLD."org"); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "org_versions_by_app"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"((SELECT "org" FROM "apps" WHERE "id" = NEW."app")); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."app" IS DISTINCT FROM NEW."app") THEN PERFORM "org_versions_draw"((SELECT "org" FROM "apps" WHERE "id" = OLD."app")); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_organization" ON "organization";
--> statement-breakpoint
CREATE TRIGGER "org_version_organization" AFTER INSERT OR UPDATE OR DELETE ON "organization" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_slug"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_apps" ON "apps";
--> statement-breakpoint
CREATE TRIGGER "org_version_apps" AFTER INSERT OR UPDATE OR DELETE ON "apps" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_org_settings" ON "org_settings";
--> statement-breakpoint
CREATE TRIGGER "org_version_org_settings" AFTER INSERT OR UPDATE OR DELETE ON "org_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_check_results" ON "check_results";
--> statement-breakpoint
CREATE TRIGGER "org_version_check_results" AFTER INSERT OR UPDATE OR DELETE ON "check_results" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_app_settings" ON "app_settings";
--> statement-breakpoint
CREATE TRIGGER "org_version_app_settings" AFTER INSERT OR UPDATE OR DELETE ON "app_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_tool_settings" ON "tool_settings";
--> statement-breakpoint
CREATE TRIGGER "org_version_tool_settings" AFTER INSERT OR UPDATE OR DELETE ON "tool_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_tool_approvals" ON "tool_approvals";
--> statement-breakpoint
CREATE TRIGGER "org_version_tool_approvals" AFTER INSERT OR UPDATE OR DELETE ON "tool_approvals" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_app_sign_ins" ON "app_sign_ins";
--> statement-breakpoint
CREATE TRIGGER "org_version_app_sign_ins" AFTER INSERT OR UPDATE OR DELETE ON "app_sign_ins" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_groups" ON "groups";
--> statement-breakpoint
CREATE TRIGGER "org_version_groups" AFTER INSERT OR UPDATE OR DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_group_members" ON "group_members";
--> statement-breakpoint
CREATE TRIGGER "org_version_group_members" AFTER INSERT OR UPDATE OR DELETE ON "group_members" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_app_access_groups" ON "app_access_groups";
--> statement-breakpoint
CREATE TRIGGER "org_version_app_access_groups" AFTER INSERT OR UPDATE OR DELETE ON "app_access_groups" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_group_tool_settings" ON "group_tool_settings";
--> statement-breakpoint
CREATE TRIGGER "org_version_group_tool_settings" AFTER INSERT OR UPDATE OR DELETE ON "group_tool_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();

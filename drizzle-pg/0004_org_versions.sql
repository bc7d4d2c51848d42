CREATE TABLE "org_versions" (
	"org" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL
);
--> statement-breakpoint
-- Every organisation gets a version; the triggers below draw a new one at each change to a row its lists are read from (lib/db/schema-pg.ts orgVersions).
INSERT INTO "org_versions" ("org", "version") SELECT "slug", gen_random_uuid()::text FROM "organization";
--> statement-breakpoint
CREATE FUNCTION "org_versions_draw"(changed text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Null: the app is gone (a cascade from its removal, which drew a version itself).
  IF changed IS NOT NULL THEN
    INSERT INTO "org_versions" ("org", "version") VALUES (changed, gen_random_uuid()::text) ON CONFLICT ("org") DO UPDATE SET "version" = excluded."version";
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "org_versions_by_org"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"(NEW."org"); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."org" IS DISTINCT FROM NEW."org") THEN PERFORM "org_versions_draw"(OLD."org"); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "org_versions_by_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"(NEW."slug"); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."slug" IS DISTINCT FROM NEW."slug") THEN PERFORM "org_versions_draw"(OLD."slug"); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "org_versions_by_app"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"((SELECT "org" FROM "apps" WHERE "id" = NEW."app")); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."app" IS DISTINCT FROM NEW."app") THEN PERFORM "org_versions_draw"((SELECT "org" FROM "apps" WHERE "id" = OLD."app")); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "org_version_organization" AFTER INSERT OR UPDATE OR DELETE ON "organization" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_slug"();
--> statement-breakpoint
CREATE TRIGGER "org_version_apps" AFTER INSERT OR UPDATE OR DELETE ON "apps" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
CREATE TRIGGER "org_version_org_settings" AFTER INSERT OR UPDATE OR DELETE ON "org_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_org"();
--> statement-breakpoint
CREATE TRIGGER "org_version_check_results" AFTER INSERT OR UPDATE OR DELETE ON "check_results" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
CREATE TRIGGER "org_version_app_settings" AFTER INSERT OR UPDATE OR DELETE ON "app_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
CREATE TRIGGER "org_version_tool_settings" AFTER INSERT OR UPDATE OR DELETE ON "tool_settings" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
CREATE TRIGGER "org_version_tool_approvals" AFTER INSERT OR UPDATE OR DELETE ON "tool_approvals" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();
--> statement-breakpoint
CREATE TRIGGER "org_version_app_sign_ins" AFTER INSERT OR UPDATE OR DELETE ON "app_sign_ins" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_app"();

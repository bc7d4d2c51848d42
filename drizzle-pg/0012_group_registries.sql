CREATE TABLE "group_registries" (
	"group" text PRIMARY KEY NOT NULL,
	"org" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "group_registries_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "group_registries" ADD CONSTRAINT "group_registries_group_groups_id_fk" FOREIGN KEY ("group") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_registries" ADD CONSTRAINT "group_registries_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Generated from lib/db/versioned-tables.ts (versionTriggersMigration): every write to a listed table draws its organisation a new version.
CREATE OR REPLACE FUNCTION "org_versions_draw"(changed text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Null: the app is gone (a cascade from its removal, which drew a version itself).
  IF changed IS NOT NULL THEN
    INSERT INTO "org_versions" ("org", "version") VALUES (changed, gen_random_uuid()::text) ON CONFLICT ("org") DO UPDATE SET "version" = excluded."version";
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "org_versions_by_organization_id"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"((SELECT "slug" FROM "organization" WHERE "id" = NEW."organization_id")); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."organization_id" IS DISTINCT FROM NEW."organization_id") THEN PERFORM "org_versions_draw"((SELECT "slug" FROM "organization" WHERE "id" = OLD."organization_id")); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "org_version_member" ON "member";
--> statement-breakpoint
CREATE TRIGGER "org_version_member" AFTER INSERT OR UPDATE OR DELETE ON "member" FOR EACH ROW EXECUTE FUNCTION "org_versions_by_organization_id"();

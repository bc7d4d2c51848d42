CREATE TABLE "org_registries" (
	"org" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "org_registries_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "more_headers" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "source_registry" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "source_name" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "source_version" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "source_latest" text;--> statement-breakpoint
ALTER TABLE "org_registries" ADD CONSTRAINT "org_registries_org_organization_slug_fk" FOREIGN KEY ("org") REFERENCES "public"."organization"("slug") ON DELETE cascade ON UPDATE no action;
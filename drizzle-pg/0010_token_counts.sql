ALTER TABLE "org_settings" ADD COLUMN "token_budget" integer;--> statement-breakpoint
ALTER TABLE "snapshots" ADD COLUMN "tokens" text;
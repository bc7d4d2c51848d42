ALTER TABLE "apps" ADD COLUMN "next_check_why" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "failed_reads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "check_results" ADD COLUMN "protocol" text;--> statement-breakpoint
ALTER TABLE "check_results" ADD COLUMN "cache_ttl_ms" bigint;--> statement-breakpoint
ALTER TABLE "check_results" ADD COLUMN "cache_scope" text;
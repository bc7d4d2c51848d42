ALTER TABLE `apps` ADD `next_check_why` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `failed_reads` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `check_results` ADD `protocol` text;--> statement-breakpoint
ALTER TABLE `check_results` ADD `cache_ttl_ms` integer;--> statement-breakpoint
ALTER TABLE `check_results` ADD `cache_scope` text;
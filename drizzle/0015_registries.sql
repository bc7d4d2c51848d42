CREATE TABLE `org_registries` (
	`org` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `org_registries_token_hash_unique` ON `org_registries` (`token_hash`);--> statement-breakpoint
ALTER TABLE `apps` ADD `more_headers` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `source_registry` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `source_name` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `source_version` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `source_latest` text;
ALTER TABLE `org_settings` ADD `token_budget` integer;--> statement-breakpoint
ALTER TABLE `snapshots` ADD `tokens` text;
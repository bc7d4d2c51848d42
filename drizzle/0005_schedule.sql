ALTER TABLE `apps` ADD `next_check_at` integer;--> statement-breakpoint
CREATE INDEX `apps_next_check` ON `apps` (`next_check_at`);
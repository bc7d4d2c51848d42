CREATE TABLE `apps` (
	`id` text PRIMARY KEY NOT NULL,
	`org` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`header_name` text,
	`header_value` text,
	`connected_at` integer NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organisations`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `apps_org_order` ON `apps` (`org`,`connected_at`,`id`);--> statement-breakpoint
CREATE TABLE `check_results` (
	`id` text PRIMARY KEY NOT NULL,
	`app` text NOT NULL,
	`checked_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`result` text NOT NULL,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `check_results_app_newest` ON `check_results` (`app`,`checked_at`);--> statement-breakpoint
CREATE TABLE `organisations` (
	`slug` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);

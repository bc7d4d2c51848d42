CREATE TABLE `alert_marks` (
	`org` text NOT NULL,
	`event` text NOT NULL,
	`subject` text NOT NULL,
	`value` text NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`org`, `event`, `subject`),
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `app_conformance` (
	`app` text PRIMARY KEY NOT NULL,
	`running_since` integer,
	`result` text,
	`ran_at` integer,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `alert_webhook_messages` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `alert_webhook_messages` ADD `next_at` integer;--> statement-breakpoint
ALTER TABLE `alert_webhooks` ADD `off_at` integer;--> statement-breakpoint
ALTER TABLE `alert_webhooks` ADD `off_reason` text;--> statement-breakpoint
ALTER TABLE `org_alerts` ADD `hosts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `org_settings` ADD `export_fallback` text DEFAULT 'strict' NOT NULL;
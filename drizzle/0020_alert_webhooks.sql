CREATE TABLE `alert_webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`hook` text NOT NULL,
	`message` text NOT NULL,
	`at` integer NOT NULL,
	`status` integer,
	`ms` integer NOT NULL,
	FOREIGN KEY (`hook`) REFERENCES `alert_webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_webhook_attempts_hook` ON `alert_webhook_attempts` (`hook`,`at`);--> statement-breakpoint
CREATE TABLE `alert_webhook_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`hook` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`claimed_at` integer,
	FOREIGN KEY (`hook`) REFERENCES `alert_webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_webhook_messages_pending` ON `alert_webhook_messages` (`state`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `alert_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`org` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);

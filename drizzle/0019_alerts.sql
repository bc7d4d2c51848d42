CREATE TABLE `alert_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`org` text NOT NULL,
	`event` text NOT NULL,
	`app_id` text,
	`app_name` text,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`link` text NOT NULL,
	`since` integer NOT NULL,
	`created_at` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`claimed_at` integer,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_outbox_org_newest` ON `alert_outbox` (`org`,`created_at`);--> statement-breakpoint
CREATE INDEX `alert_outbox_pending` ON `alert_outbox` (`state`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `app_alert_states` (
	`app` text PRIMARY KEY NOT NULL,
	`down_since` integer NOT NULL,
	`told_at` integer NOT NULL,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `org_alerts` (
	`org` text PRIMARY KEY NOT NULL,
	`events_off` text DEFAULT '[]' NOT NULL,
	`recipients` text,
	`email` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);

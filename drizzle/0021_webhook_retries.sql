ALTER TABLE `alert_webhook_messages` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `alert_webhook_messages` ADD `next_at` integer;--> statement-breakpoint
ALTER TABLE `alert_webhooks` ADD `off_at` integer;--> statement-breakpoint
ALTER TABLE `alert_webhooks` ADD `off_reason` text;
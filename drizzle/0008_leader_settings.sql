CREATE TABLE `app_settings` (
	`app` text PRIMARY KEY NOT NULL,
	`new_tools` text DEFAULT 'org' NOT NULL,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tool_settings` (
	`app` text NOT NULL,
	`name` text NOT NULL,
	`setting` text NOT NULL,
	`set_by` text NOT NULL,
	`set_by_email` text NOT NULL,
	`set_at` integer NOT NULL,
	PRIMARY KEY(`app`, `name`),
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE TABLE `org_settings` (
	`org` text PRIMARY KEY NOT NULL,
	`new_tools` text DEFAULT 'available' NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tool_approvals` (
	`app` text NOT NULL,
	`name` text NOT NULL,
	`fingerprint` text NOT NULL,
	`approved_at` integer NOT NULL,
	`approved_by` text,
	PRIMARY KEY(`app`, `name`),
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);

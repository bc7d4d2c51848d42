CREATE TABLE `app_conformance` (
	`app` text PRIMARY KEY NOT NULL,
	`running_since` integer,
	`result` text,
	`ran_at` integer,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE TABLE `snapshots` (
	`hash` text PRIMARY KEY NOT NULL,
	`entries` text NOT NULL,
	`tools` integer NOT NULL,
	`chars` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_check_results` (
	`id` text PRIMARY KEY NOT NULL,
	`app` text NOT NULL,
	`checked_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`snapshot` text,
	`unavailable` text,
	`connect_ms` integer,
	`list_ms` integer,
	`stopped` integer DEFAULT false NOT NULL,
	`chars_read` integer,
	`result` text,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`snapshot`) REFERENCES `snapshots`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Older checks keep their whole result (the listing itself was not kept before snapshots); their
-- outcome and timings are copied out of it so that history reads every row alike.
INSERT INTO `__new_check_results`("id", "app", "checked_at", "duration_ms", "snapshot", "unavailable", "connect_ms", "list_ms", "stopped", "chars_read", "result")
SELECT "id", "app", "checked_at", "duration_ms", NULL, json_extract("result", '$.unavailable'), json_extract("result", '$.timings.connectMs'), json_extract("result", '$.timings.listMs'), coalesce(json_extract("result", '$.listing.stopped'), 0), NULL, "result" FROM `check_results`;--> statement-breakpoint
DROP TABLE `check_results`;--> statement-breakpoint
ALTER TABLE `__new_check_results` RENAME TO `check_results`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `check_results_app_newest` ON `check_results` (`app`,`checked_at`);
CREATE TABLE `app_sign_ins` (
	`app` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`issuer` text,
	`discovery` text,
	`client` text,
	`registration` text,
	`tokens` text,
	`expires_at` integer,
	`failure` text,
	`connected_by` text,
	`connected_at` integer,
	`version` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_flows` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`app` text NOT NULL,
	`org` text NOT NULL,
	`started_by` text NOT NULL,
	`issuer` text NOT NULL,
	`discovery` text NOT NULL,
	`client` text NOT NULL,
	`registration` text NOT NULL,
	`verifier` text NOT NULL,
	`redirect_url` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_flows_app` ON `oauth_flows` (`app`);--> statement-breakpoint
CREATE INDEX `oauth_flows_expires` ON `oauth_flows` (`expires_at`);
CREATE TABLE `group_registries` (
	`group` text PRIMARY KEY NOT NULL,
	`org` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`group`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_registries_token_hash_unique` ON `group_registries` (`token_hash`);--> statement-breakpoint
-- Generated from lib/db/versioned-tables.ts (versionTriggersMigration): every write to a listed table draws its organisation a new version.
DROP TRIGGER IF EXISTS `org_version_member_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_member_insert` AFTER INSERT ON `member` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `slug`, lower(hex(randomblob(8))) FROM `organization` WHERE `id` = NEW.`organization_id` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_member_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_member_update` AFTER UPDATE ON `member` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `slug`, lower(hex(randomblob(8))) FROM `organization` WHERE `id` = NEW.`organization_id` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `slug`, lower(hex(randomblob(8))) FROM `organization` WHERE `id` = OLD.`organization_id` AND OLD.`organization_id` IS NOT NEW.`organization_id` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_member_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_member_delete` AFTER DELETE ON `member` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `slug`, lower(hex(randomblob(8))) FROM `organization` WHERE `id` = OLD.`organization_id` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;

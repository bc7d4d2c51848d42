CREATE TABLE `app_access_groups` (
	`app` text NOT NULL,
	`group` text NOT NULL,
	PRIMARY KEY(`app`, `group`),
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `group_members` (
	`group` text NOT NULL,
	`member` text NOT NULL,
	`org` text NOT NULL,
	`person` text NOT NULL,
	PRIMARY KEY(`group`, `member`),
	FOREIGN KEY (`group`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member`) REFERENCES `member`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_person` ON `group_members` (`org`,`person`);--> statement-breakpoint
CREATE TABLE `group_tool_settings` (
	`app` text NOT NULL,
	`group` text NOT NULL,
	`name` text NOT NULL,
	`setting` text NOT NULL,
	`set_by` text NOT NULL,
	`set_by_email` text NOT NULL,
	`set_at` integer NOT NULL,
	PRIMARY KEY(`app`, `group`, `name`),
	FOREIGN KEY (`app`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`org` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`org`) REFERENCES `organization`(`slug`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `groups_org_name_key` ON `groups` (`org`,`name_key`);--> statement-breakpoint
ALTER TABLE `app_settings` ADD `access` text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
-- Generated from lib/db/versioned-tables.ts (versionTriggersMigration): every write to a listed table draws its organisation a new version.
DROP TRIGGER IF EXISTS `org_version_organization_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_insert` AFTER INSERT ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`slug`, lower(hex(randomblob(8))) WHERE NEW.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_organization_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_update` AFTER UPDATE ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`slug`, lower(hex(randomblob(8))) WHERE NEW.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`slug`, lower(hex(randomblob(8))) WHERE OLD.`slug` IS NOT NULL AND OLD.`slug` IS NOT NEW.`slug` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_organization_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_delete` AFTER DELETE ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`slug`, lower(hex(randomblob(8))) WHERE OLD.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_apps_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_insert` AFTER INSERT ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_apps_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_update` AFTER UPDATE ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_apps_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_delete` AFTER DELETE ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_org_settings_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_insert` AFTER INSERT ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_org_settings_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_update` AFTER UPDATE ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_org_settings_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_delete` AFTER DELETE ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_check_results_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_insert` AFTER INSERT ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_check_results_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_update` AFTER UPDATE ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_check_results_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_delete` AFTER DELETE ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_settings_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_insert` AFTER INSERT ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_settings_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_update` AFTER UPDATE ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_settings_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_delete` AFTER DELETE ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_settings_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_insert` AFTER INSERT ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_settings_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_update` AFTER UPDATE ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_settings_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_delete` AFTER DELETE ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_approvals_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_insert` AFTER INSERT ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_approvals_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_update` AFTER UPDATE ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_tool_approvals_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_delete` AFTER DELETE ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_sign_ins_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_insert` AFTER INSERT ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_sign_ins_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_update` AFTER UPDATE ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_sign_ins_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_delete` AFTER DELETE ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_groups_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_groups_insert` AFTER INSERT ON `groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_groups_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_groups_update` AFTER UPDATE ON `groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_groups_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_groups_delete` AFTER DELETE ON `groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_members_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_members_insert` AFTER INSERT ON `group_members` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_members_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_members_update` AFTER UPDATE ON `group_members` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_members_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_members_delete` AFTER DELETE ON `group_members` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_access_groups_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_access_groups_insert` AFTER INSERT ON `app_access_groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_access_groups_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_access_groups_update` AFTER UPDATE ON `app_access_groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_app_access_groups_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_access_groups_delete` AFTER DELETE ON `app_access_groups` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_tool_settings_insert`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_tool_settings_insert` AFTER INSERT ON `group_tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_tool_settings_update`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_tool_settings_update` AFTER UPDATE ON `group_tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `org_version_group_tool_settings_delete`;
--> statement-breakpoint
CREATE TRIGGER `org_version_group_tool_settings_delete` AFTER DELETE ON `group_tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;

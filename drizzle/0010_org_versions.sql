CREATE TABLE `org_versions` (
	`org` text PRIMARY KEY NOT NULL,
	`version` text NOT NULL
);
--> statement-breakpoint
-- Every organisation gets a version; the triggers below draw a new one at each change to a row its lists are read from (lib/db/schema.ts orgVersions).
INSERT INTO `org_versions` (`org`, `version`) SELECT `slug`, lower(hex(randomblob(8))) FROM `organization`;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_insert` AFTER INSERT ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`slug`, lower(hex(randomblob(8))) WHERE NEW.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_update` AFTER UPDATE ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`slug`, lower(hex(randomblob(8))) WHERE NEW.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`slug`, lower(hex(randomblob(8))) WHERE OLD.`slug` IS NOT NULL AND OLD.`slug` IS NOT NEW.`slug` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_organization_delete` AFTER DELETE ON `organization` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`slug`, lower(hex(randomblob(8))) WHERE OLD.`slug` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_insert` AFTER INSERT ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_update` AFTER UPDATE ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_apps_delete` AFTER DELETE ON `apps` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_insert` AFTER INSERT ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_update` AFTER UPDATE ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT NEW.`org`, lower(hex(randomblob(8))) WHERE NEW.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL AND OLD.`org` IS NOT NEW.`org` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_org_settings_delete` AFTER DELETE ON `org_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT OLD.`org`, lower(hex(randomblob(8))) WHERE OLD.`org` IS NOT NULL ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_insert` AFTER INSERT ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_update` AFTER UPDATE ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_check_results_delete` AFTER DELETE ON `check_results` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_insert` AFTER INSERT ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_update` AFTER UPDATE ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_settings_delete` AFTER DELETE ON `app_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_insert` AFTER INSERT ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_update` AFTER UPDATE ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_settings_delete` AFTER DELETE ON `tool_settings` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_insert` AFTER INSERT ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_update` AFTER UPDATE ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_tool_approvals_delete` AFTER DELETE ON `tool_approvals` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_insert` AFTER INSERT ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_update` AFTER UPDATE ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` AND OLD.`app` IS NOT NEW.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;
--> statement-breakpoint
CREATE TRIGGER `org_version_app_sign_ins_delete` AFTER DELETE ON `app_sign_ins` BEGIN INSERT INTO `org_versions` (`org`, `version`) SELECT `org`, lower(hex(randomblob(8))) FROM `apps` WHERE `id` = OLD.`app` ON CONFLICT (`org`) DO UPDATE SET `version` = excluded.`version`; END;

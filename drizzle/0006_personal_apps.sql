ALTER TABLE `apps` ADD `owner` text REFERENCES user(id) ON DELETE cascade;

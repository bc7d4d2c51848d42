DROP INDEX "check_results_app_newest";--> statement-breakpoint
CREATE INDEX "check_results_app_newest" ON "check_results" USING btree ("app","checked_at","id");
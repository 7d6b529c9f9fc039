--
-- bench.regressions: the scheduled results flagged as regressions.
--
CREATE OR REPLACE VIEW bench.regressions AS
SELECT * FROM bench.schedule_results WHERE regression;

COMMENT ON VIEW bench.regressions IS
    'Scheduled results whose tps fell below the rolling baseline by more than the schedule''s threshold';
GRANT SELECT ON bench.regressions TO PUBLIC;

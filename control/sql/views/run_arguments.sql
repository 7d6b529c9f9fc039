CREATE OR REPLACE VIEW bench.run_arguments AS
SELECT a.argno, a.name, a.type, a.default_value, a.description
  FROM bench._arguments_of('bench.run') a;

COMMENT ON VIEW bench.run_arguments IS
    'The arguments every run takes (bench.run, bench.start, and the runs of sweeps and schedules): name, type, default and what it does';
GRANT SELECT ON bench.run_arguments TO PUBLIC;

-- bench._rate_schedule: the starts a rate limit schedules, for tests
CREATE OR REPLACE FUNCTION bench._rate_schedule(random_seed bigint, rate double precision, clients integer,
                                                workers integer, seconds double precision)
RETURNS double precision[]
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_rate_schedule';

COMMENT ON FUNCTION bench._rate_schedule(bigint, double precision, integer, integer, double precision) IS
    'Internal: the starts (seconds from the run''s start) that a run''s rate limit schedules before SECONDS, given its random_seed, rate, clients and client workers';

--
-- bench._host_cpu_sample: the host CPU figures a sample keeps, from the text
-- of /proc/stat and the sample before (src/observe/cpu.c): each counter held at
-- the highest value the run's samples showed, so that busy time never grows
-- by more than total time between two samples of a run.
--
CREATE OR REPLACE FUNCTION bench._host_cpu_sample(stat text, previous jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_host_cpu_sample';

COMMENT ON FUNCTION bench._host_cpu_sample(text, jsonb) IS
    'Internal: the host CPU figures of a sample (host_busy_s, host_total_s) from the first line of /proc/stat, each counter held at the sample before';

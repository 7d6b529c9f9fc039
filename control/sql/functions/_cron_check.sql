--
-- bench._cron_check: why a cron expression is not one pg_cron takes, or
-- NULL when it is.  pg_cron is the final judge (bench.schedule passes its
-- error on); this gives the usual mistakes a clear message first.
--
CREATE OR REPLACE FUNCTION bench._cron_check(expr text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    fields text[];
    names  text[] := ARRAY['minute', 'hour', 'day of month', 'month', 'day of week'];
    lo     int[] := ARRAY[0, 0, 1, 1, 0];
    hi     int[] := ARRAY[59, 23, 31, 12, 7];
    f      text;
    part   text;
    m      text[];
    mon    text[] := ARRAY['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
    dow    text[] := ARRAY['sun','mon','tue','wed','thu','fri','sat'];
    a      numeric;
    b      numeric;
    i      int;
    k      int;
BEGIN
    IF expr IS NULL OR btrim(expr) = '' THEN
        RETURN 'it is empty';
    END IF;
    expr := lower(btrim(expr));
    IF expr IN ('@reboot', '@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly') THEN
        RETURN NULL;
    END IF;
    IF expr LIKE '@%' THEN
        RETURN 'the special schedules are @reboot, @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly';
    END IF;
    IF expr ~ '^[0-9]+ *seconds?$' THEN
        a := substring(expr from '^([0-9]+)')::numeric;
        IF a BETWEEN 1 AND 59 THEN
            RETURN NULL;
        END IF;
        RETURN 'an interval in seconds must be between 1 and 59 seconds';
    END IF;
    fields := regexp_split_to_array(expr, '\s+');
    IF array_length(fields, 1) <> 5 THEN
        RETURN format('it has %s fields, not 5 (minute, hour, day of month, month, day of week)',
                      array_length(fields, 1));
    END IF;
    FOR i IN 1..5 LOOP
        f := fields[i];
        -- names of months and days of the week, as cron takes them
        IF i = 4 THEN
            FOR k IN 1..12 LOOP
                f := regexp_replace(f, '\m' || mon[k] || '\M', k::text, 'g');
            END LOOP;
        ELSIF i = 5 THEN
            FOR k IN 1..7 LOOP
                f := regexp_replace(f, '\m' || dow[k] || '\M', (k - 1)::text, 'g');
            END LOOP;
        END IF;
        FOREACH part IN ARRAY string_to_array(f, ',') LOOP
            IF i = 3 AND part = '$' THEN
                CONTINUE;
            END IF;
            m := regexp_match(part, '^(\*|[0-9]+(?:-[0-9]+)?)(?:/([0-9]+))?$');
            IF m IS NULL THEN
                RETURN format('the %s field "%s" is not a number, a range a-b, * or a list of them, each with an optional /step',
                              names[i], fields[i]);
            END IF;
            IF m[2] IS NOT NULL AND m[2]::numeric NOT BETWEEN 1 AND hi[i] THEN
                RETURN format('the step in the %s field "%s" must be between 1 and %s', names[i], fields[i], hi[i]);
            END IF;
            IF m[1] <> '*' THEN
                a := split_part(m[1], '-', 1)::numeric;
                b := COALESCE(NULLIF(split_part(m[1], '-', 2), ''), split_part(m[1], '-', 1))::numeric;
                IF a NOT BETWEEN lo[i] AND hi[i] OR b NOT BETWEEN lo[i] AND hi[i] THEN
                    RETURN format('the %s field "%s" must be within %s-%s', names[i], fields[i], lo[i], hi[i]);
                END IF;
                IF b < a THEN
                    RETURN format('the range in the %s field "%s" runs backwards', names[i], fields[i]);
                END IF;
            END IF;
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION bench._cron_check(text) IS
    'Internal: why a cron expression is not one pg_cron takes, or NULL when it is';

--
-- bench._svg_check_size: the checks of width and height every chart makes.
--
CREATE OR REPLACE FUNCTION bench._svg_check_size(fn text, width integer, height integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF width IS NULL OR height IS NULL THEN
        RAISE EXCEPTION 'argument "%" of % must not be null',
                        CASE WHEN width IS NULL THEN 'width' ELSE 'height' END, fn
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave the argument out to use its default.';
    END IF;
    IF width NOT BETWEEN 200 AND 4000 OR height NOT BETWEEN 200 AND 4000 THEN
        RAISE EXCEPTION '% must be between 200 and 4000 pixels, not %',
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN 'width' ELSE 'height' END,
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN width ELSE height END
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'width and height are the size of the picture in pixels; the defaults are 900 and 560.';
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._svg_check_size(text, integer, integer) IS
    'Internal (charts): refuses a NULL or out-of-range picture size';
